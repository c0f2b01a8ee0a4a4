/**
 * The response half of the envelope (./envelope.ts has the request half and the shared types;
 * PROTOCOL.md "Requests and responses", "Streams"): the server seals a response bound to its
 * request (session, epoch, seq, status, flags, content type), the client checks and opens it.
 *
 * Pitfalls:
 *  - A response is compressed only when the request accepted it and the server passed `deflate`;
 *    a compressed response the client did not ask for is refused (NEN_RESPONSE_UNAUTHENTICATED).
 *  - Null-body statuses (204, 304, ...) and HEAD carry the sealed record in `nen-body`.
 *  - Client-side failures are `clientError`s; nothing here logs or leaks plaintext.
 */
import { NenProtocolError, clientError } from './codes.js';
import { HEADER, MEDIA_TYPE, REQ_FLAG, RES_FLAG, isNullBodyStatus } from './constants.js';
import { COMPRESS_MIN_BYTES, type EnvelopeKeys, type HeaderList, type HeaderSource, type MaybePromise, mediaType } from './envelope.js';
import {
  RecordOpener,
  RecordSealer,
  decodeHeaderRecord,
  encodeHeaderRecord,
  formatResponseHeader,
  openMessageNative,
  parseResponseHeader,
  responseAad,
  sealMessage,
  sealMessageChunks,
  sealTextMessageChunks,
  type RequestMeta,
} from './message.js';
import { utf8 } from './bytes.js';

/** The `nen` value of an uncompressed single response (formatted once, not per response). */
const NEN_PLAIN = formatResponseHeader(0);
const EMPTY = new Uint8Array(0);

/** What the server seals a response for: the request's envelope and session keys. */
export interface ResponseContext {
  readonly keys: EnvelopeKeys;
  readonly meta: RequestMeta;
  /** Upper-case request method (HEAD responses carry their record in a header). */
  readonly method: string;
}

export interface SealedResponse {
  /** Nen's response headers (`content-type`, `nen`, `nen-type`, and `nen-body` for null bodies). */
  readonly headers: HeaderList;
  /** The wire body; null for null-body statuses and HEAD. */
  readonly body: Uint8Array | null;
}

/** What one sealed response binds before its AEAD: the plaintext (deflated or not), AAD and headers. */
function responseSetup(ctx: ResponseContext, status: number, contentType: string, body: Uint8Array, deflate?: (b: Uint8Array) => Uint8Array) {
  let plain = body;
  let flags = 0;
  if (deflate && ctx.meta.flags & REQ_FLAG.ACCEPT_COMPRESSED && plain.length >= COMPRESS_MIN_BYTES) {
    plain = deflate(plain);
    flags |= RES_FLAG.COMPRESSED;
  }
  const aad = responseAad(ctx.meta.sessionId, ctx.meta.epoch, ctx.meta.seq, status, flags, contentType, true);
  const headers: HeaderList = [
    ['content-type', MEDIA_TYPE.sealed],
    [HEADER.nen, flags === 0 ? NEN_PLAIN : formatResponseHeader(flags)],
  ];
  if (contentType) headers.push([HEADER.type, contentType]);
  return { plain, aad, headers, inHeader: isNullBodyStatus(status) || ctx.method === 'HEAD' };
}

/**
 * Seals one response (server). It is compressed (RES_FLAG.COMPRESSED) when `deflate` is given, the
 * request accepted compression and the body is at least COMPRESS_MIN_BYTES long.
 */
export function sealResponse(
  ctx: ResponseContext,
  status: number,
  contentType: string,
  body: Uint8Array,
  deflate?: (b: Uint8Array) => Uint8Array,
): SealedResponse {
  const r = responseSetup(ctx, status, contentType, body, deflate);
  const sealed = sealMessage(ctx.keys.s2c, ctx.keys.s2cIv, ctx.meta.seq, r.aad, r.plain);
  if (r.inHeader) {
    r.headers.push([HEADER.body, encodeHeaderRecord(sealed)]);
    return { headers: r.headers, body: null };
  }
  return { headers: r.headers, body: sealed };
}

/**
 * sealResponse with the wire body as arrays to be written in order (their concatenation is
 * sealResponse's body), for a server that writes them to its socket itself: on node:crypto a
 * large body's ciphertext and tag are not joined (one body-sized copy and allocation less).
 */
export function sealResponseChunks(
  ctx: ResponseContext,
  status: number,
  contentType: string,
  body: Uint8Array,
  deflate?: (b: Uint8Array) => Uint8Array,
): { readonly headers: HeaderList; readonly body: Uint8Array[] | null } {
  const r = responseSetup(ctx, status, contentType, body, deflate);
  if (r.inHeader) {
    r.headers.push([HEADER.body, encodeHeaderRecord(sealMessage(ctx.keys.s2c, ctx.keys.s2cIv, ctx.meta.seq, r.aad, r.plain))]);
    return { headers: r.headers, body: null };
  }
  return { headers: r.headers, body: sealMessageChunks(ctx.keys.s2c, ctx.keys.s2cIv, ctx.meta.seq, r.aad, r.plain) };
}

/**
 * sealResponseChunks of a body given as text (a JSON answer's `JSON.stringify`), sealed as its
 * UTF-8 bytes: without compression or a header record, the Aead gets the text itself
 * (sealTextMessageChunks: node:crypto encodes it while sealing, so no body-sized encoded copy
 * exists on the JS heap); otherwise the text is encoded first. The wire bytes are the same.
 */
export function sealTextResponseChunks(
  ctx: ResponseContext,
  status: number,
  contentType: string,
  text: string,
  deflate?: (b: Uint8Array) => Uint8Array,
): { readonly headers: HeaderList; readonly body: Uint8Array[] | null } {
  if ((deflate && ctx.meta.flags & REQ_FLAG.ACCEPT_COMPRESSED) || isNullBodyStatus(status) || ctx.method === 'HEAD')
    return sealResponseChunks(ctx, status, contentType, utf8(text), deflate);
  const r = responseSetup(ctx, status, contentType, EMPTY);
  return { headers: r.headers, body: sealTextMessageChunks(ctx.keys.s2c, ctx.keys.s2cIv, ctx.meta.seq, r.aad, text) };
}

/** A streamed response (server, always status 200): its headers and the record sealer. */
export function sealResponseStream(ctx: ResponseContext, contentType: string): { headers: HeaderList; sealer: RecordSealer } {
  const aad = responseAad(ctx.meta.sessionId, ctx.meta.epoch, ctx.meta.seq, 200, RES_FLAG.STREAM, contentType);
  const headers: HeaderList = [
    ['content-type', MEDIA_TYPE.stream],
    [HEADER.nen, formatResponseHeader(RES_FLAG.STREAM)],
    [HEADER.type, contentType],
  ];
  return { headers, sealer: new RecordSealer(ctx.keys.s2c, ctx.keys.s2cIv, ctx.meta.seq, aad) };
}

/** A response's envelope as the client reads it from the head; null when it has none. */
export interface ResponseHead {
  readonly flags: number;
  readonly stream: boolean;
  /** The plaintext content type (`nen-type`, bound in the AAD). */
  readonly contentType: string;
  /** True when the record travels in `nen-body` (null-body status or HEAD). */
  readonly nullBody: boolean;
}

export function parseResponse(headers: HeaderSource, status: number, method: string): ResponseHead | null {
  const hdr = parseResponseHeader(headers.get(HEADER.nen));
  if (!hdr) return null;
  return {
    flags: hdr.flags,
    stream: (hdr.flags & RES_FLAG.STREAM) !== 0,
    contentType: headers.get(HEADER.type) ?? '',
    nullBody: isNullBodyStatus(status) || method === 'HEAD',
  };
}

/** Whether `content-type` names `want` (exactly, the common case, or with parameters / spaces). */
function hasMediaType(headers: HeaderSource, want: string): boolean {
  return headers.get('content-type') === want || mediaType(headers) === want;
}

/** The request a response answers (client side). */
export interface ResponseExpectation {
  readonly keys: EnvelopeKeys;
  readonly sessionId: Uint8Array;
  readonly epoch: number;
  readonly seq: bigint;
  /** Whether this request asked for compressed responses. */
  readonly compress: boolean;
  /** Bounded deflate-raw decoder; throws NenProtocolError past `maxBytes`. */
  readonly inflate?: ((b: Uint8Array, maxBytes: number) => MaybePromise<Uint8Array>) | undefined;
  readonly maxBytes: number;
}

/** The sealed record of a single (non-stream) response: the `nen-body` header or the body bytes. */
export function responseRecord(head: ResponseHead, headers: HeaderSource, body: Uint8Array | null): Uint8Array {
  let sealed: Uint8Array | null;
  if (head.nullBody) {
    const hb = headers.get(HEADER.body);
    sealed = hb === null ? null : decodeHeaderRecord(hb);
  } else {
    sealed = body;
  }
  if (!sealed) throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'response envelope without a sealed record');
  if (!head.nullBody && !hasMediaType(headers, MEDIA_TYPE.sealed)) {
    throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'sealed response with the wrong content type');
  }
  return sealed;
}

/** Opens a single sealed response (client): authenticates it under this request, then inflates it if compressed. */
export function openResponse(x: ResponseExpectation, head: ResponseHead, status: number, sealed: Uint8Array): MaybePromise<Uint8Array> {
  const aad = responseAad(x.sessionId, x.epoch, x.seq, status, head.flags, head.contentType, true);
  const failed = (e: unknown): never => {
    throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'response failed authentication (tampered, substituted or forged)', e);
  };
  let plain: Uint8Array | Promise<Uint8Array>;
  try {
    plain = openMessageNative(x.keys.s2c, x.keys.s2cIv, x.seq, aad, sealed); // a promise on WebCrypto (browsers)
  } catch (e) {
    return failed(e);
  }
  return plain instanceof Promise ? plain.then((p) => opened(x, head, p), failed) : opened(x, head, plain);
}

/** An authenticated response's plaintext, inflated if it was compressed. */
function opened(x: ResponseExpectation, head: ResponseHead, plain: Uint8Array): MaybePromise<Uint8Array> {
  if (!(head.flags & RES_FLAG.COMPRESSED)) return plain;
  if (!x.compress || !x.inflate) throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'compressed response that was not asked for');
  const invalid = (e: unknown): never => {
    if (e instanceof NenProtocolError) throw e;
    throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'compressed response is not valid deflate-raw', e);
  };
  try {
    const r = x.inflate(plain, x.maxBytes);
    return r instanceof Promise ? r.catch(invalid) : r;
  } catch (e) {
    return invalid(e);
  }
}

/** The record opener of a streamed response (client), after checking its content type, status and body. */
export function openResponseStream(x: ResponseExpectation, head: ResponseHead, headers: HeaderSource, status: number, hasBody: boolean): RecordOpener {
  if (!hasMediaType(headers, MEDIA_TYPE.stream) || !hasBody || status !== 200) {
    throw clientError('NEN_RESPONSE_UNAUTHENTICATED', 'stream envelope with a wrong content type, status or no body');
  }
  const aad = responseAad(x.sessionId, x.epoch, x.seq, 200, head.flags, head.contentType);
  return new RecordOpener(x.keys.s2c, x.keys.s2cIv, x.seq, aad, (k, detail) =>
    clientError(k === 'truncated' ? 'NEN_STREAM_TRUNCATED' : 'NEN_STREAM_INVALID', detail),
  );
}
