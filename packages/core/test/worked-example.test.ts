/**
 * The worked example of PROTOCOL.md, computed by the real protocol code from deterministic inputs
 * (fixed seeds; derandomized HPKE encapsulation through the test-only noble entry point), and
 * cross-checked against the wasm backend for everything that does not depend on randomness.
 *
 * PROTOCOL.md embeds the generated block between `<!-- worked-example:begin -->` and
 * `<!-- worked-example:end -->`; this test fails when the document and the code disagree.
 * Regenerate with `NEN_UPDATE_EXAMPLE=1 pnpm vitest run test/worked-example.test.ts`
 * (also writes the full-length vectors to src/protocol/worked-example.vectors.json).
 *
 * The example is computed in ./worked-example-compute.ts, written out in
 * ./worked-example-render.ts, and its `answers` section (with the checks
 * that the code agrees with it) is ./worked-example-answers.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exampleHandshake, exampleInputs, exampleMessages } from './worked-example-compute.js';
import { checkAnswers } from './worked-example-answers.js';
import { exampleBlock, exampleVectors } from './worked-example-render.js';
import { loadBackend } from '../src/backend/index.js';
import { KEM_ID } from '../src/backend/types.js';
import { concatBytes, toHex } from '../src/protocol/bytes.js';
import { LABEL } from '../src/protocol/constants.js';
import { transcriptHash } from '../src/protocol/handshake.js';
import { deriveEpochKeyMaterial } from '../src/protocol/keys.js';

const here = dirname(fileURLToPath(import.meta.url));
const protocolMd = join(here, '../../../PROTOCOL.md');
const vectorsFile = join(here, '../src/protocol/worked-example.vectors.json');

async function generate() {
  const noble = await loadBackend('noble');
  const inp = exampleInputs();
  const hs = exampleHandshake(noble, inp);
  const m = exampleMessages(noble, inp, hs.secret);
  const ex = { inp, hs, m };
  const vectors = exampleVectors(ex);
  checkAnswers(inp.staticSeed, hs.staticKey.publicKey, hs.pin);
  const block = exampleBlock(ex, (b) => noble.sha256(b));
  m.keys.dispose();
  hs.staticKey.dispose();
  return {
    block,
    vectors,
    parts: {
      staticSeed: inp.staticSeed,
      ephIkm: inp.ephIkm,
      sessionId: inp.sessionId,
      now: inp.now,
      hello: hs.hello,
      response: hs.response,
      secret: hs.secret,
      encStatic: hs.encStatic,
      encEph: hs.encEph,
      exportedS: hs.xs.exported,
      exportedE: hs.xe.exported,
      ephPrivateKey: hs.ephKp.privateKey,
    },
  };
}

describe('PROTOCOL.md worked example', () => {
  it('is what the code computes, byte for byte', async () => {
    const { block, vectors } = await generate();
    const begin = '<!-- worked-example:begin -->';
    const end = '<!-- worked-example:end -->';
    if (process.env.NEN_UPDATE_EXAMPLE === '1') {
      const md = readFileSync(protocolMd, 'utf8');
      const i = md.indexOf(begin);
      const j = md.indexOf(end);
      if (i < 0 || j < 0) throw new Error('PROTOCOL.md lacks the worked-example markers');
      writeFileSync(protocolMd, `${md.slice(0, i + begin.length)}\n${block}\n${md.slice(j)}`);
      writeFileSync(vectorsFile, `${JSON.stringify(vectors, null, 2)}\n`);
    }
    expect(existsSync(protocolMd), 'PROTOCOL.md exists').toBe(true);
    const md = readFileSync(protocolMd, 'utf8');
    expect(md).toContain(`${begin}\n${block}\n${end}`);
    expect(JSON.parse(readFileSync(vectorsFile, 'utf8'))).toEqual(vectors);
  });

  it('the wasm and node backends decapsulate the same exports and derive the same session secrets from the same handshake bytes', async () => {
    const { parts } = await generate();
    for (const kind of ['wasm', 'node'] as const) {
      const b = await loadBackend(kind);
      const sk = b.createRecipientKey(KEM_ID.XWING, parts.staticSeed);
      // Server side: the static key decapsulates enc_static; the client side replays the ephemeral key from its ikm.
      expect(toHex(sk.setupBaseRExport(parts.encStatic, LABEL.hpkeInfoStatic, LABEL.exporterContext, 32))).toBe(toHex(parts.exportedS));
      const eph = b.deriveKeyPair(KEM_ID.XWING, parts.ephIkm);
      expect(toHex(eph.privateKey)).toBe(toHex(parts.ephPrivateKey));
      const r = b.createRecipientKey(KEM_ID.XWING, eph.privateKey);
      expect(toHex(r.publicKey)).toBe(toHex(parts.hello.subarray(8, 8 + 1216)));
      expect(toHex(r.setupBaseRExport(parts.encEph, LABEL.hpkeInfoEphemeral, LABEL.exporterContext, 32))).toBe(toHex(parts.exportedE));
      const th = transcriptHash(b, parts.hello, parts.response.subarray(0, parts.response.length - 32));
      expect(toHex(b.hkdfExtract(th, concatBytes(parts.exportedE, parts.exportedS)))).toBe(toHex(parts.secret));
      sk.dispose();
      r.dispose();
      const k = deriveEpochKeyMaterial(b, parts.secret);
      const noble = deriveEpochKeyMaterial(await loadBackend('noble'), parts.secret);
      expect(k).toEqual(noble);
    }
  });
});
