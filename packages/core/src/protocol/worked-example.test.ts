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
import type { Aead } from '../backend/types.js';
import { concatBytes, fromHex, toBase64Url, toHex, u16, utf8 } from './bytes.js';
import { LABEL, REQ_FLAG, RES_FLAG, isNullBodyStatus } from './constants.js';
import { clientHandshakeStart, parseServerKeyPin, formatServerKeyPin, serverHandshake, transcriptHash } from './handshake.js';
import { SessionKeys, computeNonce, deriveEpochKeyMaterial, nextEpochSecret } from './keys.js';
import {
  formatRequestHeader,
  openMessage,
  packConfidentialQuery,
  recordAad,
  requestAad,
  responseAad,
  sealMessage,
  formatResponseHeader,
  RecordOpener,
  RecordSealer,
} from './message.js';

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
    sealBase: (kem, pk, info, aad, pt) => b.sealBase(kem, pk, info, aad, pt),
    createSenderKey: (kem, pk) => b.createSenderKey(kem, pk),
  };
}

const short = (b: Uint8Array) =>
  b.length <= 48 ? toHex(b) : `${toHex(b.subarray(0, 16))}…${toHex(b.subarray(b.length - 8))} (${b.length} bytes, SHA-256 ${toHex(sha(b))})`;
let sha: (b: Uint8Array) => Uint8Array = () => new Uint8Array(0);
/** Full hex, 64 bytes per line, each line indented. */
const wrap = (b: Uint8Array, indent: string) => {
  const h = toHex(b);
  const out: string[] = [];
  for (let i = 0; i < h.length; i += 128) out.push(`${indent}${h.slice(i, i + 128)}`);
  return out;
};

interface RecordVector {
  index: number;
  final: boolean;
  plaintext: string;
  nonce: string;
  aad: string;
  framed: string;
}

/** Seals `chunks` as a record stream the way both ends do (each chunk a record, then an empty final one) and describes every record. */
function streamVectors(aead: Aead, iv: Uint8Array, seq: bigint, baseAad: Uint8Array, chunks: Uint8Array[]) {
  const sealer = new RecordSealer(aead, iv, seq, baseAad);
  const records: RecordVector[] = [];
  const parts: Uint8Array[] = [];
  const all = [...chunks.map((c) => [c, false] as const), [new Uint8Array(0), true] as const];
  for (const [chunk, final] of all) {
    const framed = sealer.seal(chunk, final);
    const index = records.length;
    records.push({
      index,
      final,
      plaintext: toHex(chunk),
      nonce: toHex(computeNonce(iv, seq, index)),
      aad: toHex(recordAad(baseAad, index, final)),
      framed: toHex(framed),
    });
    parts.push(framed);
  }
  const body = concatBytes(...parts);
  // The receiver side: the real opener accepts it and returns the chunks.
  const opener = new RecordOpener(aead, iv, seq, baseAad, (k, d) => new Error(`${k}: ${d}`));
  expect(concatBytes(...opener.push(body))).toEqual(concatBytes(...chunks));
  opener.end();
  return { records, body };
}

/**
 * The answers PROTOCOL.md gives an independent implementer, as data (the `answers` section of the
 * vectors file). packages/server/test/protocol-answers.test.ts reads them from the JSON and checks
 * that the real server behaves exactly so; change both together.
 */
const ANSWERS = {
  protocolVersion: 1,
  streamFinal: {
    onTheWire: false,
    recordAad: 'AAD_message || u32(index) || u8(final)',
    recordNonce: 'iv XOR (u32(index) || u64(seq))',
    receiverTries: [0, 1],
    afterFinal: 'any byte is invalid',
  },
  streams: {
    responseFlags: 4,
    compressedWithStream: false,
    confidentialQueryWithStream: false,
    refusedFlagsWithStream: {
      COMPRESSED: { status: 400, code: 'NEN_MALFORMED' },
      CONFIDENTIAL_QUERY: { status: 400, code: 'NEN_MALFORMED' },
      RETRY: { status: 400, code: 'NEN_MALFORMED' },
    },
    uploadRoutes: ['withNen', 'withNenStream', 'rotate', 'terminate', 'status'],
    uploadMethodsRefused: { GET: { status: 400, code: 'NEN_MALFORMED' }, HEAD: { status: 400, code: 'NEN_MALFORMED' } },
    uploadWithoutFinalRecord: {
      beforeFirstRecord: { status: 400, code: 'NEN_STREAM_TRUNCATED', handlerRuns: false },
      afterFirstRecord: {
        handlerRuns: true,
        handlerBodyError: 'NEN_STREAM_TRUNCATED',
        status: 400,
        sealed: true,
        body: { error: { code: 'NEN_STREAM_TRUNCATED', message: 'nen: the streamed body ended before its final record' } },
      },
    },
  },
  confidentialQuery: { q: 'raw', handlerUrl: 'path?q' },
  refusals: [
    ['no nen header', 400, 'NEN_NOT_ENCRYPTED'],
    ['nen header with 5 fields', 400, 'NEN_MALFORMED'],
    ['nen header version 2', 400, 'NEN_UNSUPPORTED_VERSION'],
    ['leading zero in a number', 400, 'NEN_MALFORMED'],
    ['unknown flag bit', 400, 'NEN_MALFORMED'],
    ['timestamp 31 s off', 401, 'NEN_TIMESTAMP'],
    ['CONFIDENTIAL_QUERY with a query in the URL', 400, 'NEN_MALFORMED'],
    ['nen-type longer than 256 bytes', 400, 'NEN_MALFORMED'],
    ['GET without nen-body', 400, 'NEN_MALFORMED'],
    ['nen-body not base64url', 400, 'NEN_MALFORMED'],
    ['STREAM flag on GET', 400, 'NEN_MALFORMED'],
    ['wrong content type', 415, 'NEN_CONTENT_TYPE'],
    ['STREAM flag with application/nen', 415, 'NEN_CONTENT_TYPE'],
    ['STREAM with COMPRESSED', 400, 'NEN_MALFORMED'],
    ['STREAM with CONFIDENTIAL_QUERY', 400, 'NEN_MALFORMED'],
    ['RETRY flag without nen-retry', 400, 'NEN_MALFORMED'],
    ['invalid content-length', 400, 'NEN_MALFORMED'],
    ['sealed body shorter than the tag', 400, 'NEN_MALFORMED'],
    ['unknown session', 401, 'NEN_SESSION_UNKNOWN'],
    ['epoch that was never current', 401, 'NEN_SESSION_UNKNOWN'],
    ['tag does not verify', 401, 'NEN_AUTH_FAILED'],
    ['confidential-query envelope shorter than its u16 length', 400, 'NEN_MALFORMED'],
    ['confidential query that is not UTF-8', 400, 'NEN_MALFORMED'],
    ['COMPRESSED body that is not raw deflate', 400, 'NEN_MALFORMED'],
    ['application/json plaintext that is not JSON', 400, 'NEN_BAD_JSON'],
    ['body over the limit', 413, 'NEN_TOO_LARGE'],
    ['replayed sequence number', 409, 'NEN_REPLAY'],
  ].map(([request, status, code]) => ({ request, status, code })),
  handshakeRefusals: [
    ['too short', 400, 'NEN_MALFORMED'],
    ['one trailing byte', 400, 'NEN_MALFORMED'],
    ['version 2', 400, 'NEN_UNSUPPORTED_VERSION'],
    ['KEM 0x6400', 400, 'NEN_UNSUPPORTED_KEM'],
    ['reserved flag bit', 400, 'NEN_MALFORMED'],
    ['kid with a "."', 400, 'NEN_MALFORMED'],
    ['unknown kid', 400, 'NEN_UNKNOWN_KEY_ID'],
    ['kid of another KEM', 400, 'NEN_UNSUPPORTED_KEM'],
    ['wrong content type', 415, 'NEN_CONTENT_TYPE'],
    ['over 4096 bytes', 413, 'NEN_TOO_LARGE'],
    ['GET', 405, 'NEN_METHOD_NOT_ALLOWED'],
    ['unknown action', 404, 'NEN_NOT_FOUND'],
  ].map(([request, status, code]) => ({ request, status, code })),
  rotateUnderPreviousEpochInGrace: { status: 401, code: 'NEN_SESSION_UNKNOWN', sequenceNumberConsumed: true, otherRequestsInGrace: 200 },
  lifetime: {
    serverMaximum: 600,
    grants: [
      [0, 600],
      [60, 60],
      [4294967295, 600],
    ].map(([requested, granted]) => ({ requested, granted })),
  },
  status: {
    fields: {
      id: 'string: session id, 22 base64url characters',
      epoch: 'integer: current epoch of the session',
      expiresAt: 'integer: ms since the Unix epoch (server clock), handshake time + granted lifetime',
      idleTimeoutSeconds: 'integer: seconds',
      lastSeenAt: 'integer: ms since the Unix epoch, the commit of this request',
      kem: '"xwing" | "mlkem768"',
      keyId: 'string kid, or null for an unpinned handshake',
      serverTime: 'integer: ms since the Unix epoch (server clock)',
    },
    sealedContentType: 'application/json',
  },
  keys: {
    sealed: false,
    contentType: 'application/json',
    item: { kid: 'string', kem: '"xwing" | "mlkem768"', publicKey: 'base64url (1216 or 1184 bytes)', pin: '<kid>:<publicKey>' },
  },
  bodilessResponses: {
    statuses: [101, 103, 204, 205, 304],
    methods: ['HEAD'],
    contentType: 'application/nen',
    record: 'nen-body header, base64url',
    body: 'empty',
    headRecordSeals: 'an empty plaintext (never the handler body)',
  },
  retry: {
    protocol: '1.1',
    flag: 16,
    header: 'nen-retry: <sid base64url>.<epoch>.<seq>.<timestamp ms> of the original request',
    aad: 'AAD_message || u16(len) || nen-retry value (only when flag 16 is set)',
    refusals: { committed: { status: 409, code: 'NEN_RETRY_COMMITTED', sealed: true }, unknown: { status: 409, code: 'NEN_RETRY_UNKNOWN', sealed: true } },
    horizonMs: 120000,
    oldServerSees: { status: 400, code: 'NEN_MALFORMED' },
  },
  keyFormats: {
    seed: { xwing: { bytes: 32, base64urlChars: 43 }, mlkem768: { bytes: 64, base64urlChars: 86 } },
    publicKey: { xwing: { bytes: 1216, base64urlChars: 1622 }, mlkem768: { bytes: 1184, base64urlChars: 1579 } },
    serverKeys: 'kid:base64url(seed)[,kid:base64url(seed)...] or JSON {"kid":"base64url(seed)"}',
    pin: 'kid:base64url(publicKey)',
    storeKey: 'base64url of 32 random bytes (43 characters)',
    keygenVariables: ['NEN_SERVER_KEYS', 'NEXT_PUBLIC_NEN_SERVER_KEY', 'NEN_STORE_KEY'],
  },
};

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
  const ephKp = noble.deriveKeyPair(KEM_ID.XWING, ephIkm);
  const client = clientHandshakeStart(be, { pin: parseServerKeyPin(pin), ephemeralIkm: ephIkm });
  const server = serverHandshake(be, client.hello, { keys: new Map([['k1', staticKey]]), sessionId, maxLifetime: 3600, idleTimeout: 900, now });
  const serverHelloBody = server.response.subarray(0, server.response.length - 32);
  const th = transcriptHash(noble, client.hello, serverHelloBody);
  const result = client.finish(server.response);
  expect(toHex(result.secret)).toBe(toHex(server.secret));

  // The HPKE exports, recomputed from the same randomness, and checked against the messages.
  const xs = setupBaseSExportDerand(KEM_ID.XWING, staticKey.publicKey, LABEL.hpkeInfoStatic, LABEL.exporterContext, 32, staticEncapsRand);
  const xe = setupBaseSExportDerand(KEM_ID.XWING, ephKp.publicKey, LABEL.hpkeInfoEphemeral, LABEL.exporterContext, 32, ephEncapsRand);
  const pkEph = client.hello.subarray(8, 8 + 1216);
  const kidField = client.hello.subarray(8 + 1216, 8 + 1216 + 3);
  const encStatic = client.hello.subarray(8 + 1216 + 3);
  const encEph = server.response.subarray(36, 36 + 1120);
  const confirm = server.response.subarray(36 + 1120);
  expect(toHex(pkEph)).toBe(toHex(ephKp.publicKey));
  expect(toHex(encStatic)).toBe(toHex(xs.enc));
  expect(toHex(encEph)).toBe(toHex(xe.enc));
  expect(toHex(staticKey.setupBaseRExport(encStatic, LABEL.hpkeInfoStatic, LABEL.exporterContext, 32))).toBe(toHex(xs.exported));
  const ephRecipient = noble.createRecipientKey(KEM_ID.XWING, ephKp.privateKey);
  expect(toHex(ephRecipient.setupBaseRExport(encEph, LABEL.hpkeInfoEphemeral, LABEL.exporterContext, 32))).toBe(toHex(xe.exported));
  ephRecipient.dispose();
  const ikm = concatBytes(xe.exported, xs.exported);
  expect(toHex(noble.hkdfExtract(th, ikm))).toBe(toHex(result.secret));
  const confirmKey = noble.hkdfExpand(result.secret, LABEL.confirm, 32);
  expect(toHex(noble.hmacSha256(confirmKey, th))).toBe(toHex(confirm));

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
  const streamType = 'text/event-stream';
  const streamAad = responseAad(sessionId, 0, 3n, 200, RES_FLAG.STREAM, streamType);
  const sres = streamVectors(keys.s2c, keys.s2cIv, 3n, streamAad, [utf8('data: hi\n\n')]);
  const stream = fromHex(toHex(sres.body));
  const s1 = nextEpochSecret(noble, result.secret);
  const km1 = deriveEpochKeyMaterial(noble, s1);

  // Streamed upload (request flag STREAM), seq 4: two chunks, then the empty final record.
  const upMeta = { ...meta, seq: 4n, timestamp: now + 4000, flags: REQ_FLAG.STREAM };
  const upType = 'application/octet-stream';
  const upAad = requestAad(upMeta, 'POST', '/api/upload', upType);
  const sup = streamVectors(keys.c2s, keys.c2sIv, 4n, upAad, [utf8('hello '), utf8('world')]);

  // Confidential query, seq 5: the URL's raw query travels inside the envelope, not canonicalised.
  const cqUrl = new URL('https://example.com/api/search?q=a%20b&tag=~x');
  const cqQuery = cqUrl.search.slice(1);
  const cqMeta = { ...meta, seq: 5n, timestamp: now + 5000, flags: REQ_FLAG.CONFIDENTIAL_QUERY };
  const cqAad = requestAad(cqMeta, 'GET', cqUrl.pathname, '');
  const cqPlain = packConfidentialQuery(cqQuery, new Uint8Array(0));
  expect(toHex(cqPlain)).toBe(toHex(concatBytes(u16(cqQuery.length), utf8(cqQuery))));
  const cqSealed = sealMessage(keys.c2s, keys.c2sIv, 5n, cqAad, cqPlain);

  // Null-body response: 204 to DELETE /api/notes/1 (seq 6), no nen-type; the record goes in nen-body.
  const delMeta = { ...meta, seq: 6n, timestamp: now + 6000 };
  const delAad = requestAad(delMeta, 'DELETE', '/api/notes/1', '');
  const delSealed = sealMessage(keys.c2s, keys.c2sIv, 6n, delAad, new Uint8Array(0));
  const noContentAad = responseAad(sessionId, 0, 6n, 204, 0, '');
  const noContentSealed = sealMessage(keys.s2c, keys.s2cIv, 6n, noContentAad, new Uint8Array(0));

  const v = {
    serverStaticSeed: staticSeed,
    serverStaticPublicKey: staticKey.publicKey,
    clientEphemeralIkm: ephIkm,
    staticEncapsRandomness: staticEncapsRand,
    ephemeralEncapsRandomness: ephEncapsRand,
    sessionId,
    clientHello: client.hello,
    serverHello: server.response,
    transcriptHash: th,
    s0: result.secret,
    c2sKey: km.c2sKey,
    c2sIv: km.c2sIv,
    s2cKey: km.s2cKey,
    s2cIv: km.s2cIv,
    s1,
    requestAad: aad,
    requestNonce: nonce,
    requestSealed: sealedReq,
    responseAad: raad,
    responseNonce: rnonce,
    responseSealed: sealedRes,
    getAad,
    getTag,
    streamAad,
    stream,
    clientEphemeralPrivateKey: ephKp.privateKey,
    clientEphemeralPublicKey: ephKp.publicKey,
    encStatic,
    exportedS: xs.exported,
    encE: encEph,
    exportedE: xe.exported,
    s0Ikm: ikm,
    confirmKey,
    confirm,
    epoch1: { c2sKey: km1.c2sKey, c2sIv: km1.c2sIv, s2cKey: km1.s2cKey, s2cIv: km1.s2cIv },
  };
  const toHexDeep = (o: Record<string, Uint8Array | Record<string, Uint8Array>>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(o).map(([k, b]) => [k, b instanceof Uint8Array ? toHex(b) : toHexDeep(b)]));
  const vectors = {
    ...toHexDeep(v),
    handshake: {
      note: 'ClientHello = version kem flags lifetime pk_eph [kid_len kid enc_static]; ServerHello = version kem flags session_id lifetime idle server_time enc_e confirm',
      kem: KEM_ID.XWING,
      kemName: 'xwing',
      staticFlag: 1,
      kid: 'k1',
      pin,
      requestedLifetimeSeconds: 0,
      grantedLifetimeSeconds: 3600,
      idleTimeoutSeconds: 900,
      serverTimeMs: now,
    },
    requests: [
      {
        seq: 1,
        method,
        target,
        canonicalTarget: target,
        nenType: reqType,
        nen: formatRequestHeader(meta),
        contentType: 'application/nen',
        plaintext: toHex(reqBody),
      },
      { seq: 2, method: 'GET', target: '/api/notes', nenType: '', nen: formatRequestHeader(getMeta), nenBody: toBase64Url(getTag) },
    ],
    responses: [
      { seq: 1, status: 201, nen: formatResponseHeader(0), nenType: resType, contentType: 'application/nen', plaintext: toHex(resBody) },
      {
        seq: 6,
        status: 204,
        requestMethod: 'DELETE',
        nen: formatResponseHeader(0),
        nenType: null,
        contentType: 'application/nen',
        body: '',
        nenBody: toBase64Url(noContentSealed),
        aad: toHex(noContentAad),
        nonce: toHex(computeNonce(keys.s2cIv, 6n)),
      },
    ],
    streamResponse: {
      seq: 3,
      status: 200,
      headers: { 'content-type': 'application/nen-stream', nen: formatResponseHeader(RES_FLAG.STREAM), 'nen-type': streamType },
      aad: toHex(streamAad),
      records: sres.records,
      body: toHex(sres.body),
    },
    streamUpload: {
      seq: 4,
      method: 'POST',
      target: '/api/upload',
      flags: REQ_FLAG.STREAM,
      headers: { nen: formatRequestHeader(upMeta), 'nen-type': upType, 'content-type': 'application/nen-stream' },
      aad: toHex(upAad),
      records: sup.records,
      body: toHex(sup.body),
    },
    confidentialQuery: {
      seq: 5,
      method: 'GET',
      url: cqUrl.href,
      urlSent: `${cqUrl.pathname}`,
      flags: REQ_FLAG.CONFIDENTIAL_QUERY,
      q: cqQuery,
      qCanonicalWouldBe: new URLSearchParams(cqQuery).toString(),
      headers: { nen: formatRequestHeader(cqMeta), 'nen-body': toBase64Url(cqSealed) },
      aad: toHex(cqAad),
      plaintext: toHex(cqPlain),
      nonce: toHex(computeNonce(keys.c2sIv, 5n)),
      sealed: toHex(cqSealed),
    },
    nullBodyRequest: {
      seq: 6,
      method: 'DELETE',
      target: '/api/notes/1',
      nen: formatRequestHeader(delMeta),
      contentType: 'application/nen',
      aad: toHex(delAad),
      body: toHex(delSealed),
    },
    answers: ANSWERS,
  };
  // The key encodings stated in ANSWERS hold for the example's keys.
  expect(toBase64Url(staticSeed).length).toBe(ANSWERS.keyFormats.seed.xwing.base64urlChars);
  expect(toBase64Url(staticKey.publicKey).length).toBe(ANSWERS.keyFormats.publicKey.xwing.base64urlChars);
  expect(toBase64Url(new Uint8Array(64)).length).toBe(ANSWERS.keyFormats.seed.mlkem768.base64urlChars);
  expect(toBase64Url(new Uint8Array(1184)).length).toBe(ANSWERS.keyFormats.publicKey.mlkem768.base64urlChars);
  expect(pin).toBe(`k1:${toBase64Url(staticKey.publicKey)}`);
  for (let st = 100; st < 600; st++) expect(isNullBodyStatus(st), `status ${st}`).toBe(ANSWERS.bodilessResponses.statuses.includes(st));
  expect(ANSWERS.streams.responseFlags).toBe(RES_FLAG.STREAM);
  const rec = (r: RecordVector) => `    record ${r.index} final=${r.final ? 1 : 0}  nonce ${r.nonce}  AAD = base AAD || ${r.aad.slice(-10)}\n      ${r.framed}`;
  const lines = [
    '```text',
    'Inputs (deterministic, for this example only; real implementations use fresh randomness)',
    `  server static seed (X-Wing, kid "k1")   ${toHex(staticSeed)}`,
    `  server static public key                 ${short(staticKey.publicKey)}`,
    `  pin                                      k1:${toBase64Url(staticKey.publicKey).slice(0, 24)}… (${pin.length} chars)`,
    `  client ephemeral DeriveKeyPair ikm       ${toHex(ephIkm)}`,
    `  client ephemeral private key (seed)      ${toHex(ephKp.privateKey)}`,
    `  encaps randomness to static key          ${toHex(staticEncapsRand)}`,
    `  encaps randomness to ephemeral key       ${toHex(ephEncapsRand)}`,
    `  session id                               ${toHex(sessionId)} = "${toBase64Url(sessionId)}"`,
    `  server time                              ${now} (2026-01-01T00:00:00Z), lifetime 3600 s, idle 900 s`,
    '',
    'Handshake (requested lifetime 0 = the server default; the server grants its maximum, 3600 s)',
    `  ClientHello  ${toHex(client.hello.subarray(0, 8))} | pk_eph | ${toHex(kidField)} | enc_static`,
    `               ${short(client.hello)}`,
    `  pk_eph       ${short(pkEph)}`,
    `  enc_static   ${short(encStatic)}`,
    `  exported_s   ${toHex(xs.exported)}`,
    `  ServerHello  ${toHex(server.response.subarray(0, 36))}`,
    `               | enc_e | confirm`,
    `               ${short(server.response)}`,
    `  enc_e        ${short(encEph)}`,
    `  exported_e   ${toHex(xe.exported)}`,
    `  TH           ${toHex(th)}`,
    `  S_0          ${toHex(result.secret)}   (IKM = exported_e || exported_s)`,
    `  confirm key  ${toHex(confirmKey)}`,
    `  confirm      ${toHex(confirm)}`,
    `  c2s key      ${toHex(km.c2sKey)}`,
    `  c2s iv       ${toHex(km.c2sIv)}`,
    `  s2c key      ${toHex(km.s2cKey)}`,
    `  s2c iv       ${toHex(km.s2cIv)}`,
    `  S_1 (rekey)  ${toHex(s1)}`,
    `  epoch 1      c2s key ${toHex(km1.c2sKey)}`,
    `               c2s iv ${toHex(km1.c2sIv)}, s2c iv ${toHex(km1.s2cIv)}`,
    `               s2c key ${toHex(km1.s2cKey)}`,
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
    `  content-type: application/nen-stream, nen: ${formatResponseHeader(RES_FLAG.STREAM)}, nen-type: ${streamType}`,
    `  base AAD     ${toHex(streamAad)}`,
    ...sres.records.map(rec),
    `  body         ${toHex(stream)}`,
    '',
    'Streamed upload, seq 4: POST /api/upload, records "hello ", "world", then the empty final record',
    `  nen: ${formatRequestHeader(upMeta)}, nen-type: ${upType}, content-type: application/nen-stream`,
    `  base AAD     ${toHex(upAad)}`,
    ...sup.records.map(rec),
    '',
    `Confidential query, seq 5: GET ${cqUrl.href}`,
    `  sent to ${cqUrl.pathname} (no query); AAD target "${cqUrl.pathname}"`,
    `  q = "${cqQuery}" (raw, as the URL serialises it; not canonicalised)`,
    `  nen: ${formatRequestHeader(cqMeta)}`,
    `  AAD          ${toHex(cqAad)}`,
    `  plaintext    ${toHex(cqPlain)}`,
    `  nen-body: ${toBase64Url(cqSealed)}`,
    '',
    'Null-body response: DELETE /api/notes/1 (seq 6, empty body) answered 204',
    `  request      nen: ${formatRequestHeader(delMeta)}, content-type: application/nen, body ${toHex(delSealed)}`,
    `  response     status 204, content-type: application/nen, nen: ${formatResponseHeader(0)}, no nen-type, empty body`,
    `  AAD          ${toHex(noContentAad)}`,
    `  nen-body: ${toBase64Url(noContentSealed)}`,
    '',
    'Full handshake messages (hex, 64 bytes a line)',
    '  server static public key',
    ...wrap(staticKey.publicKey, '    '),
    '  ClientHello',
    ...wrap(client.hello, '    '),
    '  ServerHello',
    ...wrap(server.response, '    '),
    '```',
  ];
  keys.dispose();
  staticKey.dispose();
  return {
    block: lines.join('\n'),
    vectors,
    parts: {
      staticSeed,
      ephIkm,
      sessionId,
      now,
      hello: client.hello,
      response: server.response,
      secret: result.secret,
      encStatic,
      encEph,
      exportedS: xs.exported,
      exportedE: xe.exported,
      ephPrivateKey: ephKp.privateKey,
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
