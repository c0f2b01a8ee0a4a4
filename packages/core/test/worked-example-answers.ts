/**
 * The `answers` section of the PROTOCOL.md worked example (packages/core/test/worked-example.test.ts
 * writes it into worked-example.vectors.json): what the protocol says an independent implementer
 * sees for refusals, streams, retries, key formats and the status route, and `checkAnswers`, which
 * holds the example's keys and the code's constants to what it states.
 *
 * Pitfall: plain data, but packages/server/test/protocol-answers.test.ts checks the real server
 * against it, so a change here is a change to the server's contract; change both together.
 */
import { expect } from 'vitest';
import { toBase64Url } from '../src/protocol/bytes.js';
import { isNullBodyStatus, RES_FLAG } from '../src/protocol/constants.js';

/**
 * The answers PROTOCOL.md gives an independent implementer, as data (the `answers` section of the
 * vectors file). packages/server/test/protocol-answers.test.ts reads them from the JSON and checks
 * that the real server behaves exactly so; change both together.
 */
export const ANSWERS = {
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

/** The key encodings and bodiless statuses stated in ANSWERS hold for the example's keys and the code. */
export function checkAnswers(staticSeed: Uint8Array, staticPublicKey: Uint8Array, pin: string) {
  expect(toBase64Url(staticSeed).length).toBe(ANSWERS.keyFormats.seed.xwing.base64urlChars);
  expect(toBase64Url(staticPublicKey).length).toBe(ANSWERS.keyFormats.publicKey.xwing.base64urlChars);
  expect(toBase64Url(new Uint8Array(64)).length).toBe(ANSWERS.keyFormats.seed.mlkem768.base64urlChars);
  expect(toBase64Url(new Uint8Array(1184)).length).toBe(ANSWERS.keyFormats.publicKey.mlkem768.base64urlChars);
  expect(pin).toBe(`k1:${toBase64Url(staticPublicKey)}`);
  for (let st = 100; st < 600; st++) expect(isNullBodyStatus(st), `status ${st}`).toBe(ANSWERS.bodilessResponses.statuses.includes(st));
  expect(ANSWERS.streams.responseFlags).toBe(RES_FLAG.STREAM);
}
