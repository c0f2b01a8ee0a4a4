/**
 * The Nen protocol error catalog (THREAT_MODEL.md property 11; ERROR_CODES.md is its prose form and
 * must list exactly these codes). One table shared by server (HTTP status + generic wire message)
 * and client (recovery behaviour), so both ends can never disagree.
 *
 * Pitfalls:
 *  - Wire messages are generic on purpose: the precise reason goes to the server log only.
 *  - A protocol error response is NOT authenticated (it is sent when no session key could be
 *    used). Clients must treat it as a hint: at most one re-handshake with backoff, never as data,
 *    and never as proof that the handler did not run: a re-sent request names the original
 *    (protocol 1.1 RETRY, PROTOCOL.md "Retries"), so the server refuses it once the original
 *    committed (NEN_RETRY_COMMITTED) or when it cannot tell (NEN_RETRY_UNKNOWN).
 */
import { NenProtocolError } from '../errors.js';

export { NenProtocolError };

export type ClientAction = 'rehandshake-retry' | 'rehandshake-once' | 'fail';

export interface ErrorSpec {
  readonly status: number;
  readonly message: string;
  /** What a conforming client does on receiving it. */
  readonly client: ClientAction;
}

/** Server-sent protocol error codes (the `nen-error` response header / JSON `error.code`). */
export const WIRE_ERRORS = {
  NEN_MALFORMED: { status: 400, message: 'malformed Nen request', client: 'fail' },
  NEN_UNSUPPORTED_VERSION: { status: 400, message: 'unsupported protocol version', client: 'fail' },
  NEN_UNSUPPORTED_KEM: { status: 400, message: 'unsupported KEM', client: 'fail' },
  NEN_UNKNOWN_KEY_ID: { status: 400, message: 'unknown server key id', client: 'fail' },
  NEN_NOT_ENCRYPTED: { status: 400, message: 'this route requires a Nen-encrypted request', client: 'fail' },
  NEN_BAD_JSON: { status: 400, message: 'decrypted body is not valid JSON', client: 'fail' },
  NEN_AUTH_FAILED: { status: 401, message: 'request authentication failed', client: 'rehandshake-once' },
  NEN_SESSION_UNKNOWN: { status: 401, message: 'unknown session', client: 'rehandshake-retry' },
  NEN_SESSION_EXPIRED: { status: 401, message: 'session expired', client: 'rehandshake-retry' },
  NEN_TIMESTAMP: { status: 401, message: 'request timestamp outside the accepted window', client: 'rehandshake-retry' },
  NEN_REPLAY: { status: 409, message: 'replayed request', client: 'fail' },
  NEN_RETRY_COMMITTED: { status: 409, message: 'the original request was already committed; the retry did not run', client: 'fail' },
  NEN_RETRY_UNKNOWN: { status: 409, message: 'cannot prove the original request did not run; the retry did not run', client: 'fail' },
  NEN_STREAM_TRUNCATED: { status: 400, message: 'the streamed body ended before its final record', client: 'fail' },
  NEN_TOO_LARGE: { status: 413, message: 'body too large', client: 'fail' },
  NEN_CONTENT_TYPE: { status: 415, message: 'wrong content type for a Nen request', client: 'fail' },
  NEN_RATE_LIMITED: { status: 429, message: 'too many handshakes, retry later', client: 'fail' },
  NEN_NOT_FOUND: { status: 404, message: 'unknown Nen session action', client: 'fail' },
  NEN_METHOD_NOT_ALLOWED: { status: 405, message: 'method not allowed', client: 'fail' },
  NEN_INTERNAL: { status: 500, message: 'internal error', client: 'fail' },
  NEN_STORE_UNAVAILABLE: { status: 503, message: 'session store unavailable, retry later', client: 'fail' },
  NEN_OHTTP_MALFORMED: { status: 400, message: 'malformed OHTTP encapsulation', client: 'fail' },
  NEN_OHTTP_KEY_UNKNOWN: { status: 400, message: 'unknown OHTTP key configuration', client: 'fail' },
  NEN_OHTTP_UNSUPPORTED_SUITE: { status: 400, message: 'OHTTP KDF / AEAD not offered by this key configuration', client: 'fail' },
  NEN_OHTTP_DECRYPT: { status: 400, message: 'OHTTP decryption failed', client: 'fail' },
  NEN_OHTTP_TRUNCATED: { status: 400, message: 'chunked OHTTP message ended before its final chunk', client: 'fail' },
  NEN_OHTTP_BHTTP: { status: 400, message: 'invalid binary HTTP message', client: 'fail' },
  NEN_OHTTP_DATE: { status: 400, message: 'date field in request outside of acceptable range', client: 'fail' },
} as const satisfies Record<string, ErrorSpec>;

export type WireErrorCode = keyof typeof WIRE_ERRORS;

export function isWireErrorCode(code: string): code is WireErrorCode {
  return Object.hasOwn(WIRE_ERRORS, code);
}

/** Client-side codes (never sent by a server). */
export const CLIENT_ERRORS = {
  NEN_HANDSHAKE_FAILED: 'the handshake response failed key confirmation or was malformed',
  NEN_BAD_SERVER_KEY: 'the pinned server key string is invalid',
  NEN_RESPONSE_UNAUTHENTICATED: 'a response to an encrypted request was not a valid Nen response',
  NEN_STREAM_TRUNCATED: 'an encrypted stream ended before its final record',
  NEN_STREAM_INVALID: 'an encrypted stream record was malformed, reordered, duplicated or forged',
  NEN_TIMEOUT: 'the request timed out',
  NEN_ABORTED: 'the request was aborted',
  NEN_BAD_INPUT: 'invalid arguments to the Nen client',
  NEN_PROTOCOL_ERROR: 'the server reported a Nen protocol error',
  NEN_OUTCOME_UNKNOWN: 'the request was sent and no authenticated answer came back: the handler may or may not have run',
  NEN_OHTTP_KEY_MISMATCH: 'the OHTTP key configuration does not match the pinned one',
} as const;

export type ClientErrorCode = keyof typeof CLIENT_ERRORS;

/** Server helper: a protocol error with the catalog status and message. */
export function wireError(code: WireErrorCode, reason: string, cause?: unknown): NenProtocolError {
  const spec = WIRE_ERRORS[code];
  return new NenProtocolError(code, spec.message, { status: spec.status, reason, cause });
}

/** Client helper. */
export function clientError(code: ClientErrorCode, detail?: string, cause?: unknown): NenProtocolError {
  const msg = detail ? `${CLIENT_ERRORS[code]}: ${detail}` : CLIENT_ERRORS[code];
  return new NenProtocolError(code, msg, cause === undefined ? undefined : { cause });
}
