/**
 * OHTTP's client encapsulation with the KEM on WebCrypto (./sender-async.ts), opened by the
 * gateway. Node 24 has WebCrypto ML-KEM-768 and X25519 (.tools/node24, installed by
 * scripts/setup.sh), so the WebCrypto path runs there in a child process on the built dist/ (only
 * the ohttp entry imported first: no Wasm loader, as in a browser): every X-Wing / ML-KEM-768
 * encapsulation (plain and chunked, ChaCha20-Poly1305 and AES-128-GCM) goes through
 * `encapsulateBits` (counted) and opens with the @noble gateway, then again with the Wasm (Rust)
 * gateway once the Node entry has loaded it; the response opens; bad keys keep the sync path's
 * codes. In this process (Node 20: no WebCrypto ML-KEM) the async API falls back to @noble.
 * Real Chromium runs the same path end to end: apps/demo/test/ohttp-browser.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ChunkedRequestOpener, encapsulateChunkedRequestAsync } from './chunked.js';
import { decapsulateRequest, encapsulateRequest, encapsulateRequestAsync } from './encapsulation.js';
import { OHTTP_KEM } from './hpke.js';
import { OhttpGatewayKeys, generateOhttpKey } from './key-config.js';
import { ohttpWebCryptoKem } from './sender-async.js';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '../../dist');
const NODE24 = join(here, '../../../../.tools/node24/bin/node');

/** Runs in Node 24 against dist/ (ESM, top-level await); prints one JSON line. */
const SCRIPT = `
const base = process.env.NEN_DIST;
const o = await import(base + '/ohttp/index.js');
let calls = 0;
const orig = crypto.subtle.encapsulateBits.bind(crypto.subtle);
crypto.subtle.encapsulateBits = (...a) => { calls++; return orig(...a); };
const msg = new TextEncoder().encode('binary http request bytes');
const eq = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const code = (p) => p.then(() => 'no error', (e) => e.code ?? String(e));
const out = { webCrypto: (await import(base + '/ohttp/sender-async.js').then((m) => m.ohttpWebCryptoKem())) !== undefined, cases: [], wasm: [] };
const saved = [];
for (const kem of [o.OHTTP_KEM.XWING, o.OHTTP_KEM.MLKEM768]) {
  const keys = o.OhttpGatewayKeys.parse(o.generateOhttpKey(7, kem));
  const [config] = keys.configs();
  for (const aeadId of [3, 1]) {
    const before = calls;
    const c = await o.encapsulateRequestAsync(config, msg, { suite: { kdfId: 1, aeadId } });
    const d = o.decapsulateRequest(keys, c.encapsulatedRequest);
    const answer = c.openResponse(d.sealResponse(msg));
    const ch = await o.encapsulateChunkedRequestAsync(config, { suite: { kdfId: 1, aeadId } });
    const opener = new o.ChunkedRequestOpener(keys);
    const parts = opener.push(Uint8Array.from([...ch.header, ...ch.sealChunk(msg.subarray(0, 5)), ...ch.sealChunk(msg.subarray(5), true)]));
    parts.push(opener.end());
    const chunked = Uint8Array.from(parts.flatMap((p) => [...p]));
    out.cases.push({ kem, aeadId, native: calls - before, opened: eq(d.request, msg) && eq(answer, msg) && eq(chunked, msg) });
    saved.push({ keys, wire: c.encapsulatedRequest });
  }
  const bad = (pk) => code(o.encapsulateRequestAsync({ ...config, publicKey: pk }, msg));
  const mlBad = config.publicKey.slice();
  mlBad.fill(0xff, 0, 384);
  const xZero = config.publicKey.slice();
  xZero.fill(0, xZero.length - 32);
  out[kem] = { mlkemModulus: await bad(mlBad), x25519LowOrder: kem === o.OHTTP_KEM.XWING ? await bad(xZero) : 'n/a', length: await bad(config.publicKey.subarray(1)) };
}
await import(base + '/index.js');
await o.ohttpKemReady();
for (const s of saved) out.wasm.push(eq(o.decapsulateRequest(s.keys, s.wire).request, msg));
console.log(JSON.stringify(out));
`;

const msg = new TextEncoder().encode('binary http request bytes');

describe('OHTTP encapsulation on WebCrypto (Node 24)', () => {
  it('X-Wing and ML-KEM-768 encapsulations through encapsulateBits open with the @noble and the Wasm gateway; bad keys keep their codes', () => {
    if (!existsSync(NODE24)) throw new Error('.tools/node24 is missing: run scripts/setup.sh');
    if (!existsSync(join(dist, 'ohttp/sender-async.js'))) throw new Error('packages/core/dist is missing: run pnpm --filter @nen/core build');
    const r = JSON.parse(
      execFileSync(NODE24, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', SCRIPT], {
        env: { ...process.env, NEN_DIST: dist },
        encoding: 'utf8',
        timeout: 60_000,
      }),
    );
    expect(r.webCrypto).toBe(true);
    expect(r.cases).toHaveLength(4);
    // one encapsulateBits per request: the plain and the chunked one
    for (const c of r.cases) expect(c).toMatchObject({ native: 2, opened: true });
    expect(r.wasm).toEqual([true, true, true, true]);
    // the sync (@noble) path's codes for the same keys: see ohttp.test.ts / kem-wasm.test.ts
    expect(r[OHTTP_KEM.XWING]).toEqual({ mlkemModulus: 'NEN_CRYPTO_KEY', x25519LowOrder: 'NEN_CRYPTO_KEY', length: 'NEN_CRYPTO_LENGTH' });
    expect(r[OHTTP_KEM.MLKEM768]).toEqual({ mlkemModulus: 'NEN_CRYPTO_KEY', x25519LowOrder: 'n/a', length: 'NEN_CRYPTO_LENGTH' });
  });
});

describe('OHTTP encapsulation without WebCrypto ML-KEM (this Node)', () => {
  it('the async API takes the sync path and opens with the gateway, plain and chunked', async () => {
    const hasMlKem = typeof (crypto.subtle as { encapsulateBits?: unknown }).encapsulateBits === 'function';
    expect((await ohttpWebCryptoKem()) !== undefined).toBe(hasMlKem);
    const keys = OhttpGatewayKeys.parse(generateOhttpKey(3, OHTTP_KEM.XWING));
    const [config] = keys.configs();
    if (!config) throw new Error('no config');
    const c = await encapsulateRequestAsync(config, msg);
    const d = decapsulateRequest(keys, c.encapsulatedRequest);
    expect(d.request).toEqual(msg);
    expect(c.openResponse(d.sealResponse(msg))).toEqual(msg);
    const ch = await encapsulateChunkedRequestAsync(config);
    const opener = new ChunkedRequestOpener(keys);
    const parts = opener.push(new Uint8Array([...ch.header, ...ch.sealChunk(msg, true)]));
    parts.push(opener.end());
    expect(new Uint8Array(parts.flatMap((p) => [...p]))).toEqual(msg);
    // the same header as the sync path (key id, KEM, KDF, AEAD)
    expect(c.encapsulatedRequest.subarray(0, 7)).toEqual(encapsulateRequest(config, msg).encapsulatedRequest.subarray(0, 7));
  });
});
