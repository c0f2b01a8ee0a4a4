/**
 * Nen protocol version 1 constants: labels, header names, flags, media types and limits.
 * Every value here is part of the wire format documented in PROTOCOL.md; changing one is a
 * protocol version change.
 *
 * Pitfalls:
 *  - The other languages' clients (clients/go, python, jvm, rust) and the conformance vectors carry
 *    their own copies of these values: a change here is a change there, in the same commit.
 *  - LABEL's entries are shared Uint8Arrays, built once: pass them, never write into them.
 */
import { utf8 } from './bytes.js';

export const PROTOCOL_VERSION = 1;

/** HPKE suite fixed by Nen: KDF HKDF-SHA256 (0x0001), AEAD ChaCha20-Poly1305 (0x0003). */
export const HPKE_KDF_ID = 0x0001;
export const HPKE_AEAD_ID = 0x0003;

export const SESSION_ID_LENGTH = 16;
export const SECRET_LENGTH = 32;
export const CONFIRM_LENGTH = 32;
export const MAX_KEY_ID_LENGTH = 32;
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** Labels (ASCII) used in HPKE info, the exporter context, the transcript, HKDF and AAD. */
export const LABEL = {
  hpkeInfoEphemeral: utf8('nen/1 ephemeral'),
  hpkeInfoStatic: utf8('nen/1 static'),
  exporterContext: utf8('nen/1 export'),
  transcript: utf8('nen/1 transcript'),
  confirm: utf8('nen/1 confirm'),
  c2sKey: utf8('nen/1 c2s key'),
  c2sIv: utf8('nen/1 c2s iv'),
  s2cKey: utf8('nen/1 s2c key'),
  s2cIv: utf8('nen/1 s2c iv'),
  rekey: utf8('nen/1 rekey'),
  request: utf8('nen/1 request'),
  response: utf8('nen/1 response'),
} as const;

/** HTTP header names (lowercase). */
export const HEADER = {
  /** Request: `1.<sid>.<epoch>.<seq>.<ts>.<flags>`; response: `1.<flags>`. */
  nen: 'nen',
  /** Plaintext content type (bound in the AAD). */
  type: 'nen-type',
  /** Sealed record carried in a header (base64url) when the message cannot have a body. */
  body: 'nen-body',
  /** Protocol error code on unauthenticated error responses. */
  error: 'nen-error',
  /**
   * Protocol 1.1: on a retry (request flag RETRY), the original request it replaces,
   * `<sid>.<epoch>.<seq>.<ts>`; bound in the AAD (PROTOCOL.md "Retries").
   */
  retry: 'nen-retry',
} as const;

export const MEDIA_TYPE = {
  /** Sealed request/response body. */
  sealed: 'application/nen',
  /** Framed stream of sealed records. */
  stream: 'application/nen-stream',
  handshake: 'application/nen-handshake',
} as const;

/** Request flag bits (header `nen`, last field; bound in the AAD). */
export const REQ_FLAG = {
  COMPRESSED: 1,
  CONFIDENTIAL_QUERY: 2,
  STREAM: 4,
  ACCEPT_COMPRESSED: 8,
  /** Protocol 1.1: this request replaces the one named in `nen-retry` (PROTOCOL.md "Retries"). */
  RETRY: 16,
} as const;
export const REQ_FLAGS_ALL = 31;

/** Response flag bits (header `nen`; bound in the AAD). */
export const RES_FLAG = {
  COMPRESSED: 1,
  STREAM: 4,
} as const;
export const RES_FLAGS_ALL = 5;

/** Handshake flag bits. */
export const HS_FLAG = {
  /** The client encapsulated to a pinned static server key (kid + enc_static present). */
  STATIC: 1,
} as const;

/** Largest plaintext per stream record. */
export const MAX_RECORD_PLAINTEXT = 65536;
/** Stream record header: u32 sealed length. */
export const RECORD_HEADER_LENGTH = 4;

/** Default timestamp window (ms), THREAT_MODEL.md property 7. */
export const DEFAULT_TIMESTAMP_WINDOW_MS = 30_000;

/** Methods whose messages cannot carry a body in fetch(): the sealed record goes in `nen-body`. */
export function isBodylessMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** Statuses that cannot carry a response body (Fetch standard "null body status"). */
export function isNullBodyStatus(status: number): boolean {
  return status === 101 || status === 103 || status === 204 || status === 205 || status === 304;
}
