/**
 * The worked example of PROTOCOL.md, computed by the real protocol code from deterministic inputs
 * (fixed seeds; derandomized HPKE encapsulation through the test-only noble entry point), and
 * cross-checked against the wasm backend for everything that does not depend on randomness.
 *
 * PROTOCOL.md embeds the generated block between `<!-- worked-example:begin -->` and
 * `<!-- worked-example:end -->`; this test fails when the document and the code disagree.
 * Regenerate with `NEN_UPDATE_EXAMPLE=1 pnpm vitest run src/protocol/worked-example.test.ts`
 * (also writes the full-length vectors to worked-example.vectors.json next to this file).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { setupBaseSExportDerand } from '../backend/noble.js';
import { loadBackend } from '../backend/index.js';
import type { Backend } from '../backend/types.js';
import { KEM_ID } from '../backend/types.js';
import { concatBytes, toBase64Url, toHex, utf8 } from './bytes.js';
import { clientHandshakeStart, parseServerKeyPin, formatServerKeyPin, serverHandshake, transcriptHash } from './handshake.js';
import { SessionKeys, computeNonce, deriveEpochKeyMaterial, nextEpochSecret } from './keys.js';
import { formatRequestHeader, openMessage, requestAad, responseAad, sealMessage, formatResponseHeader, RecordSealer } from './message.js';

const here = dirname(fileURLToPath(import.meta.url));
const protocolMd = join(here, '../../../../PROTOCOL.md');
const vectorsFile = join(here, 'worked-example.vectors.json');

const fill = (n: number, f: (i: number) => number) => Uint8Array.from({ length: n }, (_, i) => f(i) & 0xff);

/** A backend whose encapsulation randomness comes from a queue (test only). */
function deterministic(b: Backend, encapsRandomness: Uint8Array[], random: Uint8Array[]): Backend {
  return {
    name: b.name,
    randomBytes: (n) => {
      const r = random.shift();
      if (!r || r.length !== n) throw new Error('example: unexpected randomBytes call');
      return r;
    },
    sha256: (d) => b.sha256(d),
    hmacSha256: (k, d) => b.hmacSha256(k, d),
    hkdfExtract: (s, i) => b.hkdfExtract(s, i),
    hkdfExpand: (p, i, l) => b.hkdfExpand(p, i, l),
    createAead: (k) => b.createAead(k),
    generateKeyPair: () => {
      throw new Error('example: generateKeyPair must not be called');
    },
    deriveKeyPair: (kem, ikm) => b.deriveKeyPair(kem, ikm),
    createRecipientKey: (kem, sk) => b.createRecipientKey(kem, sk),
    setupBaseSExport: (kem, pk, info, ctx, len) => {
      const r = encapsRandomness.shift();
      if (!r) throw new Error('example: no encapsulation randomness left');
      return setupBaseSExportDerand(kem, pk, info, ctx, len, r);
    },
  };
}

const short = (b: Uint8Array) => (b.length <= 48 ? toHex(b) : `${toHex(b.subarray(0, 16))}…${toHex(b.subarray(b.length - 8))} (${b.length} bytes, SHA-256 ${toHex(sha(b))})`);
let sha: (b: Uint8Array) => Uint8Array = () => new Uint8Array(0);

async function generate() {
  const noble = await loadBackend('noble');
  sha = (b) => noble.sha256(b);
  const staticSeed = fill(32, (i) => i + 1);
  const ephIkm = fill(32, (i) => 0x40 + i);
  const staticEncapsRand = fill(64, (i) => 0x80 + i);
  const ephEncapsRand = fill(64, (i) => 0xc0 + i);
  const sessionId = fill(16, (i) => 0xa0 + i);
  const now = 1_767_225_600_000; // 2026-01-01T00:00:00Z
  const be = deterministic(noble, [staticEncapsRand, ephEncapsRand], []);

  const staticKey = be.createRecipientKey(KEM_ID.XWING, staticSeed);
  const pin = formatServerKeyPin('k1', staticKey.publicKey);
  const client = clientHandshakeStart(be, { pin: parseServerKeyPin(pin), ephemeralIkm: ephIkm });
  const server = serverHandshake(be, client.hello, { keys: new Map([['k1', staticKey]]), sessionId, maxLifetime: 3600, idleTimeout: 900, now });
  const th = transcriptHash(noble, client.hello, server.response.subarray(0, server.response.length - 32));
  const result = client.finish(server.response);
  expect(toHex(result.secret)).toBe(toHex(server.secret));

  const km = deriveEpochKeyMaterial(noble, result.secret);
  const keys = new SessionKeys(noble, result.secret, 0);
  const meta = { sessionId, epoch: 0, seq: 1n, timestamp: now + 1000, flags: 0 };
  const method = 'POST';
  const target = '/api/notes?draft=1';
  const reqType = 'application/json';
  const reqBody = utf8('{"title":"hello"}');
  const aad = requestAad(meta, method, target, reqType);
  const nonce = computeNonce(keys.c2sIv, meta.seq);
  const sealedReq = sealMessage(keys.c2s, keys.c2sIv, meta.seq, aad, reqBody);
  expect(openMessage(keys.c2s, keys.c2sIv, meta.seq, aad, sealedReq)).toEqual(reqBody);
  const resType = 'application/json';
  const resBody = utf8('{"id":1}');
  const raad = responseAad(sessionId, 0, meta.seq, 201, 0, resType);
  const rnonce = computeNonce(keys.s2cIv, meta.seq);
  const sealedRes = sealMessage(keys.s2c, keys.s2cIv, meta.seq, raad, resBody);
  const getMeta = { ...meta, seq: 2n, timestamp: now + 2000 };
  const getAad = requestAad(getMeta, 'GET', '/api/notes', '');
  const getTag = sealMessage(keys.c2s, keys.c2sIv, 2n, getAad, new Uint8Array(0));
  const streamAad = responseAad(sessionId, 0, 3n, 200, 4, 'text/event-stream');
  const sealer = new RecordSealer(keys.s2c, keys.s2cIv, 3n, streamAad);
  const stream = concatBytes(sealer.seal(utf8('data: hi\n\n'), false), sealer.seal(new Uint8Array(0), true));
  const s1 = nextEpochSecret(noble, result.secret);

  const v = {
    serverStaticSeed: staticSeed, serverStaticPublicKey: staticKey.publicKey, clientEphemeralIkm: ephIkm,
    staticEncapsRandomness: staticEncapsRand, ephemeralEncapsRandomness: ephEncapsRand, sessionId,
    clientHello: client.hello, serverHello: server.response, transcriptHash: th, s0: result.secret,
    c2sKey: km.c2sKey, c2sIv: km.c2sIv, s2cKey: km.s2cKey, s2cIv: km.s2cIv, s1,
    requestAad: aad, requestNonce: nonce, requestSealed: sealedReq, responseAad: raad, responseNonce: rnonce, responseSealed: sealedRes,
    getAad, getTag, streamAad, stream,
  };
  const hex = Object.fromEntries(Object.entries(v).map(([k, b]) => [k, toHex(b)]));
  const lines = [
    '```text',
    'Inputs (deterministic, for this example only; real implementations use fresh randomness)',
    `  server static seed (X-Wing, kid "k1")   ${toHex(staticSeed)}`,
    `  server static public key                 ${short(staticKey.publicKey)}`,
    `  pin                                      k1:${toBase64Url(staticKey.publicKey).slice(0, 24)}… (${pin.length} chars)`,
    `  client ephemeral DeriveKeyPair ikm       ${toHex(ephIkm)}`,
    `  encaps randomness to static key          ${toHex(staticEncapsRand)}`,
    `  encaps randomness to ephemeral key       ${toHex(ephEncapsRand)}`,
    `  session id                               ${toHex(sessionId)} = "${toBase64Url(sessionId)}"`,
    `  server time                              ${now} (2026-01-01T00:00:00Z), lifetime 3600 s, idle 900 s`,
    '',
    'Handshake',
    `  ClientHello  ${toHex(client.hello.subarray(0, 8))} | pk_eph | ${toHex(client.hello.subarray(8 + 1216, 8 + 1216 + 3))} | enc_static`,
    `               ${short(client.hello)}`,
    `  ServerHello  ${toHex(server.response.subarray(0, 36))}`,
    `               | enc_e | confirm ${toHex(server.response.subarray(server.response.length - 32))}`,
    `               ${short(server.response)}`,
    `  TH           ${toHex(th)}`,
    `  S_0          ${toHex(result.secret)}`,
    `  c2s key      ${toHex(km.c2sKey)}`,
    `  c2s iv       ${toHex(km.c2sIv)}`,
    `  s2c key      ${toHex(km.s2cKey)}`,
    `  s2c iv       ${toHex(km.s2cIv)}`,
    `  S_1 (rekey)  ${toHex(s1)}`,
    '',
    `Request: POST ${target}, nen-type ${reqType}, body {"title":"hello"}`,
    `  nen: ${formatRequestHeader(meta)}`,
    `  AAD          ${toHex(aad)}`,
    `  nonce        ${toHex(nonce)}`,
    `  body         ${toHex(sealedReq)}`,
    '',
    `Response: 201, nen-type ${resType}, body {"id":1}`,
    `  nen: ${formatResponseHeader(0)}`,
    `  AAD          ${toHex(raad)}`,
    `  nonce        ${toHex(rnonce)}`,
    `  body         ${toHex(sealedRes)}`,
    '',
    'Request: GET /api/notes (no body), seq 2',
    `  nen: ${formatRequestHeader(getMeta)}`,
    `  AAD          ${toHex(getAad)}`,
    `  nen-body: ${toBase64Url(getTag)}`,
    '',
    'Stream response to seq 3: records "data: hi\\n\\n" then the empty final record',
    `  nen: ${formatResponseHeader(4)}`,
    `  body         ${toHex(stream)}`,
    '```',
  ];
  keys.dispose();
  staticKey.dispose();
  return { block: lines.join('\n'), hex, parts: { staticSeed, ephIkm, sessionId, now, hello: client.hello, response: server.response, secret: result.secret } };
}

describe('PROTOCOL.md worked example', () => {
  it('is what the code computes, byte for byte', async () => {
    const { block, hex } = await generate();
    const begin = '<!-- worked-example:begin -->';
    const end = '<!-- worked-example:end -->';
    if (process.env.NEN_UPDATE_EXAMPLE === '1') {
      const md = readFileSync(protocolMd, 'utf8');
      const i = md.indexOf(begin);
      const j = md.indexOf(end);
      if (i < 0 || j < 0) throw new Error('PROTOCOL.md lacks the worked-example markers');
      writeFileSync(protocolMd, `${md.slice(0, i + begin.length)}\n${block}\n${md.slice(j)}`);
      writeFileSync(vectorsFile, `${JSON.stringify(hex, null, 2)}\n`);
    }
    expect(existsSync(protocolMd), 'PROTOCOL.md exists').toBe(true);
    const md = readFileSync(protocolMd, 'utf8');
    expect(md).toContain(`${begin}\n${block}\n${end}`);
    expect(JSON.parse(readFileSync(vectorsFile, 'utf8'))).toEqual(hex);
  });

  it('the wasm and node backends derive the same session secrets and records from the same handshake bytes', async () => {
    const { parts } = await generate();
    for (const kind of ['wasm', 'node'] as const) {
      const b = await loadBackend(kind);
      const sk = b.createRecipientKey(KEM_ID.XWING, parts.staticSeed);
      // Server side: same static key; the client side replays the ephemeral key from its ikm.
      const eph = b.deriveKeyPair(KEM_ID.XWING, parts.ephIkm);
      const r = b.createRecipientKey(KEM_ID.XWING, eph.privateKey);
      expect(toHex(r.publicKey)).toBe(toHex(parts.hello.subarray(8, 8 + 1216)));
      const th = transcriptHash(b, parts.hello, parts.response.subarray(0, parts.response.length - 32));
      expect(th.length).toBe(32);
      sk.dispose();
      r.dispose();
      const k = deriveEpochKeyMaterial(b, parts.secret);
      const noble = deriveEpochKeyMaterial(await loadBackend('noble'), parts.secret);
      expect(k).toEqual(noble);
    }
  });
});
