/**
 * The PROTOCOL.md worked example written out from the computed values (./worked-example-compute.ts):
 * the JSON vectors (src/protocol/worked-example.vectors.json) and the text block embedded in
 * PROTOCOL.md.
 *
 * Pitfalls: both outputs are compared byte for byte with committed files (the JSON key order is the
 * order of the object literals here), so reordering a field is a change to the vectors file; long
 * values appear shortened in the block (first 16 and last 8 bytes + SHA-256) and in full at its end.
 */
import type { Backend } from '../src/backend/types.js';
import { KEM_ID } from '../src/backend/types.js';
import { toBase64Url, toHex } from '../src/protocol/bytes.js';
import { REQ_FLAG, RES_FLAG } from '../src/protocol/constants.js';
import { computeNonce } from '../src/protocol/keys.js';
import { formatRequestHeader, formatResponseHeader } from '../src/protocol/message.js';
import { ANSWERS } from './worked-example-answers.js';
import type { Handshake, Inputs, Messages, RecordVector } from './worked-example-compute.js';

export interface Example {
  inp: Inputs;
  hs: Handshake;
  m: Messages;
}

/** Full hex, 64 bytes per line, each line indented. */
const wrap = (b: Uint8Array, indent: string) => {
  const h = toHex(b);
  const out: string[] = [];
  for (let i = 0; i < h.length; i += 128) out.push(`${indent}${h.slice(i, i + 128)}`);
  return out;
};

type Bytes = Record<string, Uint8Array | Record<string, Uint8Array>>;
const toHexDeep = (o: Bytes): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).map(([k, b]) => [k, b instanceof Uint8Array ? toHex(b) : toHexDeep(b)]));

/** The byte values, in the vectors file's order. */
function byteVectors({ inp, hs, m }: Example): Bytes {
  const { km, km1 } = m;
  return {
    serverStaticSeed: inp.staticSeed,
    serverStaticPublicKey: hs.staticKey.publicKey,
    clientEphemeralIkm: inp.ephIkm,
    staticEncapsRandomness: inp.staticEncapsRand,
    ephemeralEncapsRandomness: inp.ephEncapsRand,
    sessionId: inp.sessionId,
    clientHello: hs.hello,
    serverHello: hs.response,
    transcriptHash: hs.th,
    s0: hs.secret,
    c2sKey: km.c2sKey,
    c2sIv: km.c2sIv,
    s2cKey: km.s2cKey,
    s2cIv: km.s2cIv,
    s1: m.s1,
    requestAad: m.aad,
    requestNonce: m.nonce,
    requestSealed: m.sealedReq,
    responseAad: m.raad,
    responseNonce: m.rnonce,
    responseSealed: m.sealedRes,
    getAad: m.getAad,
    getTag: m.getTag,
    streamAad: m.streamAad,
    stream: m.stream,
    clientEphemeralPrivateKey: hs.ephKp.privateKey,
    clientEphemeralPublicKey: hs.ephKp.publicKey,
    encStatic: hs.encStatic,
    exportedS: hs.xs.exported,
    encE: hs.encEph,
    exportedE: hs.xe.exported,
    s0Ikm: hs.ikm,
    confirmKey: hs.confirmKey,
    confirm: hs.confirm,
    epoch1: { c2sKey: km1.c2sKey, c2sIv: km1.c2sIv, s2cKey: km1.s2cKey, s2cIv: km1.s2cIv },
  };
}

/** The handshake parameters and the seq 1, 2 and 6 requests and responses as JSON. */
function exchangeVectors({ inp, hs, m }: Example) {
  return {
    handshake: {
      note: 'ClientHello = version kem flags lifetime pk_eph [kid_len kid enc_static]; ServerHello = version kem flags session_id lifetime idle server_time enc_e confirm',
      kem: KEM_ID.XWING,
      kemName: 'xwing',
      staticFlag: 1,
      kid: 'k1',
      pin: hs.pin,
      requestedLifetimeSeconds: 0,
      grantedLifetimeSeconds: 3600,
      idleTimeoutSeconds: 900,
      serverTimeMs: inp.now,
    },
    requests: [
      {
        seq: 1,
        method: m.method,
        target: m.target,
        canonicalTarget: m.target,
        nenType: m.reqType,
        nen: formatRequestHeader(m.meta),
        contentType: 'application/nen',
        plaintext: toHex(m.reqBody),
      },
      { seq: 2, method: 'GET', target: '/api/notes', nenType: '', nen: formatRequestHeader(m.getMeta), nenBody: toBase64Url(m.getTag) },
    ],
    responses: [
      { seq: 1, status: 201, nen: formatResponseHeader(0), nenType: m.resType, contentType: 'application/nen', plaintext: toHex(m.resBody) },
      {
        seq: 6,
        status: 204,
        requestMethod: 'DELETE',
        nen: formatResponseHeader(0),
        nenType: null,
        contentType: 'application/nen',
        body: '',
        nenBody: toBase64Url(m.noContentSealed),
        aad: toHex(m.noContentAad),
        nonce: toHex(computeNonce(m.keys.s2cIv, 6n)),
      },
    ],
  };
}

/** The streams, the confidential query and the null-body request as JSON. */
function specialVectors({ m }: Example) {
  return {
    streamResponse: {
      seq: 3,
      status: 200,
      headers: { 'content-type': 'application/nen-stream', nen: formatResponseHeader(RES_FLAG.STREAM), 'nen-type': m.streamType },
      aad: toHex(m.streamAad),
      records: m.sres.records,
      body: toHex(m.sres.body),
    },
    streamUpload: {
      seq: 4,
      method: 'POST',
      target: '/api/upload',
      flags: REQ_FLAG.STREAM,
      headers: { nen: formatRequestHeader(m.upMeta), 'nen-type': m.upType, 'content-type': 'application/nen-stream' },
      aad: toHex(m.upAad),
      records: m.sup.records,
      body: toHex(m.sup.body),
    },
    confidentialQuery: {
      seq: 5,
      method: 'GET',
      url: m.cqUrl.href,
      urlSent: `${m.cqUrl.pathname}`,
      flags: REQ_FLAG.CONFIDENTIAL_QUERY,
      q: m.cqQuery,
      qCanonicalWouldBe: new URLSearchParams(m.cqQuery).toString(),
      headers: { nen: formatRequestHeader(m.cqMeta), 'nen-body': toBase64Url(m.cqSealed) },
      aad: toHex(m.cqAad),
      plaintext: toHex(m.cqPlain),
      nonce: toHex(computeNonce(m.keys.c2sIv, 5n)),
      sealed: toHex(m.cqSealed),
    },
    nullBodyRequest: {
      seq: 6,
      method: 'DELETE',
      target: '/api/notes/1',
      nen: formatRequestHeader(m.delMeta),
      contentType: 'application/nen',
      aad: toHex(m.delAad),
      body: toHex(m.delSealed),
    },
  };
}

/** The contents of worked-example.vectors.json. */
export function exampleVectors(ex: Example) {
  return { ...toHexDeep(byteVectors(ex)), ...exchangeVectors(ex), ...specialVectors(ex), answers: ANSWERS };
}

const rec = (r: RecordVector) => `    record ${r.index} final=${r.final ? 1 : 0}  nonce ${r.nonce}  AAD = base AAD || ${r.aad.slice(-10)}\n      ${r.framed}`;

/** The inputs and the handshake section of the block; `short` abbreviates long values. */
function handshakeLines({ inp, hs, m }: Example, short: (b: Uint8Array) => string) {
  const { km, km1 } = m;
  return [
    'Inputs (deterministic, for this example only; real implementations use fresh randomness)',
    `  server static seed (X-Wing, kid "k1")   ${toHex(inp.staticSeed)}`,
    `  server static public key                 ${short(hs.staticKey.publicKey)}`,
    `  pin                                      k1:${toBase64Url(hs.staticKey.publicKey).slice(0, 24)}… (${hs.pin.length} chars)`,
    `  client ephemeral DeriveKeyPair ikm       ${toHex(inp.ephIkm)}`,
    `  client ephemeral private key (seed)      ${toHex(hs.ephKp.privateKey)}`,
    `  encaps randomness to static key          ${toHex(inp.staticEncapsRand)}`,
    `  encaps randomness to ephemeral key       ${toHex(inp.ephEncapsRand)}`,
    `  session id                               ${toHex(inp.sessionId)} = "${toBase64Url(inp.sessionId)}"`,
    `  server time                              ${inp.now} (2026-01-01T00:00:00Z), lifetime 3600 s, idle 900 s`,
    '',
    'Handshake (requested lifetime 0 = the server default; the server grants its maximum, 3600 s)',
    `  ClientHello  ${toHex(hs.hello.subarray(0, 8))} | pk_eph | ${toHex(hs.kidField)} | enc_static`,
    `               ${short(hs.hello)}`,
    `  pk_eph       ${short(hs.pkEph)}`,
    `  enc_static   ${short(hs.encStatic)}`,
    `  exported_s   ${toHex(hs.xs.exported)}`,
    `  ServerHello  ${toHex(hs.response.subarray(0, 36))}`,
    `               | enc_e | confirm`,
    `               ${short(hs.response)}`,
    `  enc_e        ${short(hs.encEph)}`,
    `  exported_e   ${toHex(hs.xe.exported)}`,
    `  TH           ${toHex(hs.th)}`,
    `  S_0          ${toHex(hs.secret)}   (IKM = exported_e || exported_s)`,
    `  confirm key  ${toHex(hs.confirmKey)}`,
    `  confirm      ${toHex(hs.confirm)}`,
    `  c2s key      ${toHex(km.c2sKey)}`,
    `  c2s iv       ${toHex(km.c2sIv)}`,
    `  s2c key      ${toHex(km.s2cKey)}`,
    `  s2c iv       ${toHex(km.s2cIv)}`,
    `  S_1 (rekey)  ${toHex(m.s1)}`,
    `  epoch 1      c2s key ${toHex(km1.c2sKey)}`,
    `               c2s iv ${toHex(km1.c2sIv)}, s2c iv ${toHex(km1.s2cIv)}`,
    `               s2c key ${toHex(km1.s2cKey)}`,
  ];
}

/** The message sections of the block (seq 1..6). */
function messageLines({ m }: Example) {
  return [
    `Request: POST ${m.target}, nen-type ${m.reqType}, body {"title":"hello"}`,
    `  nen: ${formatRequestHeader(m.meta)}`,
    `  AAD          ${toHex(m.aad)}`,
    `  nonce        ${toHex(m.nonce)}`,
    `  body         ${toHex(m.sealedReq)}`,
    '',
    `Response: 201, nen-type ${m.resType}, body {"id":1}`,
    `  nen: ${formatResponseHeader(0)}`,
    `  AAD          ${toHex(m.raad)}`,
    `  nonce        ${toHex(m.rnonce)}`,
    `  body         ${toHex(m.sealedRes)}`,
    '',
    'Request: GET /api/notes (no body), seq 2',
    `  nen: ${formatRequestHeader(m.getMeta)}`,
    `  AAD          ${toHex(m.getAad)}`,
    `  nen-body: ${toBase64Url(m.getTag)}`,
    '',
    'Stream response to seq 3: records "data: hi\\n\\n" then the empty final record',
    `  content-type: application/nen-stream, nen: ${formatResponseHeader(RES_FLAG.STREAM)}, nen-type: ${m.streamType}`,
    `  base AAD     ${toHex(m.streamAad)}`,
    ...m.sres.records.map(rec),
    `  body         ${toHex(m.stream)}`,
    '',
    'Streamed upload, seq 4: POST /api/upload, records "hello ", "world", then the empty final record',
    `  nen: ${formatRequestHeader(m.upMeta)}, nen-type: ${m.upType}, content-type: application/nen-stream`,
    `  base AAD     ${toHex(m.upAad)}`,
    ...m.sup.records.map(rec),
    '',
    `Confidential query, seq 5: GET ${m.cqUrl.href}`,
    `  sent to ${m.cqUrl.pathname} (no query); AAD target "${m.cqUrl.pathname}"`,
    `  q = "${m.cqQuery}" (raw, as the URL serialises it; not canonicalised)`,
    `  nen: ${formatRequestHeader(m.cqMeta)}`,
    `  AAD          ${toHex(m.cqAad)}`,
    `  plaintext    ${toHex(m.cqPlain)}`,
    `  nen-body: ${toBase64Url(m.cqSealed)}`,
    '',
    'Null-body response: DELETE /api/notes/1 (seq 6, empty body) answered 204',
    `  request      nen: ${formatRequestHeader(m.delMeta)}, content-type: application/nen, body ${toHex(m.delSealed)}`,
    `  response     status 204, content-type: application/nen, nen: ${formatResponseHeader(0)}, no nen-type, empty body`,
    `  AAD          ${toHex(m.noContentAad)}`,
    `  nen-body: ${toBase64Url(m.noContentSealed)}`,
  ];
}

/** The text block PROTOCOL.md embeds between the worked-example markers. */
export function exampleBlock(ex: Example, sha256: Backend['sha256']) {
  const short = (b: Uint8Array) =>
    b.length <= 48 ? toHex(b) : `${toHex(b.subarray(0, 16))}…${toHex(b.subarray(b.length - 8))} (${b.length} bytes, SHA-256 ${toHex(sha256(b))})`;
  const { hs } = ex;
  const lines = [
    '```text',
    ...handshakeLines(ex, short),
    '',
    ...messageLines(ex),
    '',
    'Full handshake messages (hex, 64 bytes a line)',
    '  server static public key',
    ...wrap(hs.staticKey.publicKey, '    '),
    '  ClientHello',
    ...wrap(hs.hello, '    '),
    '  ServerHello',
    ...wrap(hs.response, '    '),
    '```',
  ];
  return lines.join('\n');
}
