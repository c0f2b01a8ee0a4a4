/**
 * Browser entry for test/browser.test.ts: seals to the recipient given in the URL hash, opens the
 * file sealed in Node, round-trips a stream, and reports on window.__nenSeal (which backend ran).
 */
import { loadBackend } from '@nen/core';
import { encodeBase64, decodeBase64, generateAgeKeyPair, open, openStream, seal, sealStream } from '../../src/index.js';

interface Input {
  recipient: string;
  identity: string;
  sealedInNode: string;
}

async function run(): Promise<Record<string, unknown>> {
  const input = JSON.parse(decodeURIComponent(location.hash.slice(1))) as Input;
  const backend = await loadBackend('auto');
  const fromNode = new TextDecoder().decode(await open(decodeBase64(input.sealedInNode)!, input.identity));
  const sealedHere = encodeBase64(await seal('sealed in Chromium', input.recipient, { armor: false }));
  const own = await generateAgeKeyPair();
  const big = crypto.getRandomValues(new Uint8Array(65536));
  const parts = [big, big, big.subarray(0, 1000)];
  const src = new ReadableStream<Uint8Array>({
    pull(c) {
      const p = parts.shift();
      if (p) c.enqueue(p);
      else c.close();
    },
  });
  let n = 0;
  const r = openStream(sealStream(src, own.recipient), own.identity).getReader();
  for (;;) {
    const { done, value } = await r.read();
    if (done) break;
    n += value.length;
  }
  return { backend: backend.name, fromNode, sealedHere, streamBytes: n };
}

run().then(
  (r) => Object.assign(window, { __nenSeal: r }),
  (e: unknown) => Object.assign(window, { __nenSeal: { error: String(e) } }),
);
