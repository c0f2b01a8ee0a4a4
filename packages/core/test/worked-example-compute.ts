/**
 * The values of the PROTOCOL.md worked example, computed by the real protocol code from fixed
 * inputs: the handshake (derandomized HPKE encapsulation through noble's test-only entry point,
 * each HPKE export recomputed and checked against the messages) and the example messages (seq 1..6:
 * request, response, GET, stream response, streamed upload, confidential query, null-body response).
 *
 * Pitfalls: the deterministic backend hands out encapsulation randomness from a queue, so the order
 * of calls is part of the example; any change here changes PROTOCOL.md and worked-example.vectors.json
 * (the test then fails until they are regenerated). Callers dispose `staticKey` and `keys`.
 */
import { expect } from 'vitest';
import { setupBaseSExportDerand } from '../src/backend/noble.js';
import type { Aead, Backend } from '../src/backend/types.js';
import { KEM_ID } from '../src/backend/types.js';
import { concatBytes, fromHex, toHex, u16, utf8 } from '../src/protocol/bytes.js';
import { LABEL, REQ_FLAG, RES_FLAG } from '../src/protocol/constants.js';
import { clientHandshakeStart, formatServerKeyPin, parseServerKeyPin, serverHandshake, transcriptHash } from '../src/protocol/handshake.js';
import { SessionKeys, computeNonce, deriveEpochKeyMaterial, nextEpochSecret } from '../src/protocol/keys.js';
import { RecordOpener, RecordSealer, openMessage, packConfidentialQuery, recordAad, requestAad, responseAad, sealMessage } from '../src/protocol/message.js';

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

export interface RecordVector {
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

/** The fixed inputs of the example. */
export function exampleInputs() {
  return {
    staticSeed: fill(32, (i) => i + 1),
    ephIkm: fill(32, (i) => 0x40 + i),
    staticEncapsRand: fill(64, (i) => 0x80 + i),
    ephEncapsRand: fill(64, (i) => 0xc0 + i),
    sessionId: fill(16, (i) => 0xa0 + i),
    now: 1_767_225_600_000, // 2026-01-01T00:00:00Z
  };
}
export type Inputs = ReturnType<typeof exampleInputs>;

/** The pinned X-Wing handshake, both ends, with every HPKE export recomputed and checked against the messages. */
export function exampleHandshake(noble: Backend, inp: Inputs) {
  const be = deterministic(noble, [inp.staticEncapsRand, inp.ephEncapsRand], []);
  const staticKey = be.createRecipientKey(KEM_ID.XWING, inp.staticSeed);
  const pin = formatServerKeyPin('k1', staticKey.publicKey);
  const ephKp = noble.deriveKeyPair(KEM_ID.XWING, inp.ephIkm);
  const client = clientHandshakeStart(be, { pin: parseServerKeyPin(pin), ephemeralIkm: inp.ephIkm });
  const keys = new Map([['k1', staticKey]]);
  const server = serverHandshake(be, client.hello, { keys, sessionId: inp.sessionId, maxLifetime: 3600, idleTimeout: 900, now: inp.now });
  const serverHelloBody = server.response.subarray(0, server.response.length - 32);
  const th = transcriptHash(noble, client.hello, serverHelloBody);
  const result = client.finish(server.response);
  expect(toHex(result.secret)).toBe(toHex(server.secret));

  // The HPKE exports, recomputed from the same randomness, and checked against the messages.
  const xs = setupBaseSExportDerand(KEM_ID.XWING, staticKey.publicKey, LABEL.hpkeInfoStatic, LABEL.exporterContext, 32, inp.staticEncapsRand);
  const xe = setupBaseSExportDerand(KEM_ID.XWING, ephKp.publicKey, LABEL.hpkeInfoEphemeral, LABEL.exporterContext, 32, inp.ephEncapsRand);
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
  const { hello } = client;
  const { response } = server;
  const { secret } = result;
  return { staticKey, pin, ephKp, hello, response, th, secret, xs, xe, pkEph, kidField, encStatic, encEph, confirm, ikm, confirmKey };
}
export type Handshake = ReturnType<typeof exampleHandshake>;

/** Seq 1: the POST and its 201 (and the epoch-0 session keys the later messages use). */
function firstMessages(noble: Backend, inp: Inputs, secret: Uint8Array) {
  const { sessionId, now } = inp;
  const keys = new SessionKeys(noble, secret, 0);
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
  return { keys, meta, method, target, reqType, reqBody, aad, nonce, sealedReq, resType, resBody, raad, rnonce, sealedRes };
}

/** Seq 2..6 and epoch 1: the bodiless GET, stream response, streamed upload, confidential query, null-body response, and the rekeyed keys. */
function laterMessages(noble: Backend, inp: Inputs, secret: Uint8Array, first: ReturnType<typeof firstMessages>) {
  const { sessionId, now } = inp;
  const { keys, meta } = first;
  const getMeta = { ...meta, seq: 2n, timestamp: now + 2000 };
  const getAad = requestAad(getMeta, 'GET', '/api/notes', '');
  const getTag = sealMessage(keys.c2s, keys.c2sIv, 2n, getAad, new Uint8Array(0));
  const streamType = 'text/event-stream';
  const streamAad = responseAad(sessionId, 0, 3n, 200, RES_FLAG.STREAM, streamType);
  const sres = streamVectors(keys.s2c, keys.s2cIv, 3n, streamAad, [utf8('data: hi\n\n')]);
  const stream = fromHex(toHex(sres.body));
  const s1 = nextEpochSecret(noble, secret);
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
  return {
    ...{ getMeta, getAad, getTag, streamType, streamAad, sres, stream, s1, km1 },
    ...{ upMeta, upType, upAad, sup, cqUrl, cqQuery, cqMeta, cqAad, cqPlain, cqSealed },
    ...{ delMeta, delAad, delSealed, noContentAad, noContentSealed },
  };
}

/** Every message of the example under the session's epoch-0 keys (`km`), and epoch 1's key material. */
export function exampleMessages(noble: Backend, inp: Inputs, secret: Uint8Array) {
  const km = deriveEpochKeyMaterial(noble, secret);
  const first = firstMessages(noble, inp, secret);
  return { km, ...first, ...laterMessages(noble, inp, secret, first) };
}
export type Messages = ReturnType<typeof exampleMessages>;
