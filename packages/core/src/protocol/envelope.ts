/**
 * The Nen message envelope, once for both ends (PROTOCOL.md "Requests and responses", "Streams";
 * THREAT_MODEL.md properties 4-6, 9, 10): which flags are set, where the sealed record travels
 * (body, or the `nen-body` header for GET/HEAD and null-body statuses), compression inside the
 * envelope, the confidential query, and the checks each side makes before trusting a message.
 *
 *   client: sealRequest → (wire) → server: parseRequest, openRequest, decodeRequestPlaintext
 *   server: sealResponse / sealResponseStream → (wire) → client: parseResponse, openResponse /
 *           openResponseStream (those in ./envelope-response.ts)
 *
 * The codec underneath (header syntax, AAD layout, AEAD, record framing) is ./message.ts; this
 * module only composes it, so the bytes on the wire are exactly those PROTOCOL.md describes.
 *
 * Pitfalls:
 *  - Compression is injected (./compression.ts): node:zlib, synchronous, on Node at both ends;
 *    the client's Compression Streams elsewhere. `sealRequest` / `openResponse` therefore return a
 *    value or a promise; the server-side functions are synchronous (one promise less per request).
 *  - Request plaintext is decoded (confidential query, inflate, size limit) only by
 *    `decodeRequestPlaintext`, which the server calls after the store commit, so a replay is
 *    refused before any decompression work.
 *  - Server-side failures are `wireError`s (stable codes, generic wire message); client-side ones
 *    are `clientError`s; nothing here logs or leaks plaintext.
 */
import type { Aead } from '../backend/types.js';
import { AEAD_TAG_LENGTH } from '../backend/types.js';
import { fromUtf8 } from './bytes.js';
import { NenProtocolError, clientError, wireError } from './codes.js';
import { HEADER, MEDIA_TYPE, REQ_FLAG, isBodylessMethod } from './constants.js';
import {
  RecordOpener,
  RecordSealer,
  decodeHeaderRecord,
  encodeHeaderRecord,
  formatRequestHeader,
  formatRetryRef,
  parseRetryRef,
  type RetryRef,
  openMessage,
  packConfidentialQuery,
  parseRequestHeader,
  requestAad,
  sealMessageNative,
  unpackConfidentialQuery,
  type RequestMeta,
} from './message.js';

/** Bodies shorter than this are never compressed (deflate would only add bytes). */
export const COMPRESS_MIN_BYTES = 64;

/** Directional keys of one (session, epoch): `SessionKeys` satisfies it. */
export interface EnvelopeKeys {
  readonly c2s: Aead;
  readonly c2sIv: Uint8Array;
  readonly s2c: Aead;
  readonly s2cIv: Uint8Array;
}

/** Anything with `get(name)` (Headers, a Map view). */
export interface HeaderSource {
  get(name: string): string | null;
}

export type HeaderList = [string, string][];
export type MaybePromise<T> = T | Promise<T>;
const EMPTY = new Uint8Array(0);

/** The media type of `content-type`, without parameters. */
export function mediaType(h: HeaderSource): string {
  return (h.get('content-type') ?? '').split(';')[0]!.trim();
}

// ---------------------------------------------------------------- client → server

export interface RequestToSeal {
  readonly keys: EnvelopeKeys;
  readonly sessionId: Uint8Array;
  readonly epoch: number;
  readonly seq: bigint;
  /** Client timestamp, ms since the Unix epoch (already corrected for clock skew). */
  readonly timestamp: number;
  /** Upper-case method. */
  readonly method: string;
  readonly url: URL;
  /** Plaintext content type ('' when none). */
  readonly contentType: string;
  readonly body: Uint8Array | ReadableStream<Uint8Array> | null;
  /** Move the query string inside the envelope. */
  readonly confidentialQuery?: boolean;
  /** Ask for compressed responses, and compress this body when `deflate` is given. */
  readonly compress?: boolean;
  /** deflate-raw (RFC 1951) of a whole body. */
  readonly deflate?: ((b: Uint8Array) => MaybePromise<Uint8Array>) | undefined;
  /** Protocol 1.1: this request retries the one named here (flag RETRY + `nen-retry`, bound in the AAD). */
  readonly retryOf?: RetryRef | undefined;
}

export interface SealedRequest {
  /** The URL to send: the query is removed when it travels inside the envelope. */
  readonly url: URL;
  /** Nen's request headers (`nen`, `nen-type`, and `content-type` or `nen-body`). */
  readonly headers: HeaderList;
  /** The wire body: sealed bytes, a stream of sealed records, or undefined (GET/HEAD). */
  readonly body: Uint8Array | ReadableStream<Uint8Array> | undefined;
  readonly flags: number;
}

/** Seals a request (client). Synchronous unless the body is compressed through an async `deflate`. */
export function sealRequest(r: RequestToSeal): MaybePromise<SealedRequest> {
  let url = r.url;
  let flags = r.retryOf ? REQ_FLAG.RETRY : 0;
  let query: string | null = null;
  if (r.confidentialQuery && url.search !== '') {
    url = new URL(url.href); // a copy: the caller's URL is reused by a retry
    query = url.search.slice(1);
    url.search = '';
    flags |= REQ_FLAG.CONFIDENTIAL_QUERY;
  }
  const stream = r.body instanceof ReadableStream ? r.body : null;
  if (stream) {
    if (query !== null) throw clientError('NEN_BAD_INPUT', 'confidentialQuery is not supported with streamed request bodies');
    if (r.retryOf) throw clientError('NEN_BAD_INPUT', 'streamed request bodies are never retried');
    flags |= REQ_FLAG.STREAM;
  }
  let body: Uint8Array = stream ? EMPTY : ((r.body as Uint8Array | null) ?? EMPTY);
  if (r.compress) {
    flags |= REQ_FLAG.ACCEPT_COMPRESSED;
    if (!stream && body.length >= COMPRESS_MIN_BYTES && r.deflate) {
      const compressed = r.deflate(body);
      flags |= REQ_FLAG.COMPRESSED;
      if (compressed instanceof Promise) return compressed.then((c) => finishRequest(r, url, flags, query, c, stream));
      body = compressed;
    }
  }
  return finishRequest(r, url, flags, query, body, stream);
}

function finishRequest(
  r: RequestToSeal,
  url: URL,
  flags: number,
  query: string | null,
  body: Uint8Array,
  stream: ReadableStream<Uint8Array> | null,
): MaybePromise<SealedRequest> {
  const meta: RequestMeta = { sessionId: r.sessionId, epoch: r.epoch, seq: r.seq, timestamp: r.timestamp, flags };
  const retry = r.retryOf ? formatRetryRef(r.retryOf) : '';
  // A single message's AAD is consumed at once (message.ts scratch); a stream's is built fresh.
  const aad = requestAad(meta, r.method, url.pathname + url.search, r.contentType, retry, !stream);
  const headers: HeaderList = [[HEADER.nen, formatRequestHeader(meta)]];
  if (retry) headers.push([HEADER.retry, retry]);
  if (r.contentType) headers.push([HEADER.type, r.contentType]);
  if (stream) {
    headers.push(['content-type', MEDIA_TYPE.stream]);
    const sealer = new RecordSealer(r.keys.c2s, r.keys.c2sIv, r.seq, aad);
    const sealed = stream.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, c) {
          c.enqueue(sealer.seal(chunk, false));
        },
        flush(c) {
          c.enqueue(sealer.seal(EMPTY, true));
        },
      }),
    );
    return { url, headers, body: sealed, flags };
  }
  const plaintext = query !== null ? packConfidentialQuery(query, body) : body;
  const sealing = sealMessageNative(r.keys.c2s, r.keys.c2sIv, r.seq, aad, plaintext); // a promise on WebCrypto (browsers)
  return sealing instanceof Promise ? sealing.then((sealed) => withSealed(r, url, flags, headers, sealed)) : withSealed(r, url, flags, headers, sealing);
}

function withSealed(r: RequestToSeal, url: URL, flags: number, headers: HeaderList, sealed: Uint8Array): SealedRequest {
  if (isBodylessMethod(r.method)) {
    headers.push([HEADER.body, encodeHeaderRecord(sealed)]);
    return { url, headers, body: undefined, flags };
  }
  headers.push(['content-type', MEDIA_TYPE.sealed]);
  return { url, headers, body: sealed, flags };
}

/** A request's envelope as the server read it from the head (before any key is used). */
export interface RequestHead {
  readonly meta: RequestMeta;
  /** Upper-case method. */
  readonly method: string;
  /** Scheme, authority (the URL's origin) and path of the request URL, and its query ('' or '?…'). */
  readonly origin: string;
  readonly path: string;
  readonly search: string;
  readonly contentType: string;
  readonly confidential: boolean;
  readonly stream: boolean;
  /** The sealed record from `nen-body` (GET/HEAD); null when it travels in the body. */
  readonly headerRecord: Uint8Array | null;
  /** The session id as on the wire (base64url). */
  readonly sid: string;
  /** Protocol 1.1: the original request this one retries (flag RETRY), and its `nen-retry` value. */
  readonly retry: RetryRef | null;
  readonly retryValue: string;
}

/**
 * Checks a request head (server, PROTOCOL.md "Server processing" steps 1-3): `nen` header syntax,
 * timestamp window, confidential-query flag vs URL, `nen-type` length, the `nen-body` record of
 * GET/HEAD or the sealed content type otherwise.
 */
export function parseRequest(headers: HeaderSource, method: string, rawUrl: string, now: number, timestampWindowMs: number): RequestHead {
  const nen = headers.get(HEADER.nen);
  const meta = parseRequestHeader(nen);
  // The session id as sent: parseRequestHeader decoded it strictly (canonical base64url of exactly
  // 16 bytes), so the field is toBase64Url(meta.sessionId), without encoding it again.
  const d = (nen as string).indexOf('.') + 1;
  const sid = (nen as string).slice(d, (nen as string).indexOf('.', d));
  if (Math.abs(meta.timestamp - now) > timestampWindowMs) throw wireError('NEN_TIMESTAMP', `request timestamp off by ${meta.timestamp - now} ms`);
  const m = method.toUpperCase();
  const { origin, path, search } = splitUrl(rawUrl);
  const confidential = (meta.flags & REQ_FLAG.CONFIDENTIAL_QUERY) !== 0;
  const stream = (meta.flags & REQ_FLAG.STREAM) !== 0;
  if (confidential && search !== '') throw wireError('NEN_MALFORMED', 'confidential-query flag set but the URL has a query');
  // Streamed uploads are never compressed, never carry a confidential query and are never retried.
  if (stream && meta.flags & (REQ_FLAG.COMPRESSED | REQ_FLAG.CONFIDENTIAL_QUERY | REQ_FLAG.RETRY))
    throw wireError('NEN_MALFORMED', 'STREAM with COMPRESSED, CONFIDENTIAL_QUERY or RETRY');
  let retry: RetryRef | null = null;
  let retryValue = '';
  if (meta.flags & REQ_FLAG.RETRY) {
    retryValue = headers.get(HEADER.retry) ?? '';
    retry = parseRetryRef(retryValue || null);
  }
  const contentType = headers.get(HEADER.type) ?? '';
  if (contentType.length > 256) throw wireError('NEN_MALFORMED', 'nen-type too long');
  let headerRecord: Uint8Array | null = null;
  if (isBodylessMethod(m)) {
    if (stream) throw wireError('NEN_MALFORMED', `stream flag on ${m}`);
    const hb = headers.get(HEADER.body);
    if (hb === null) throw wireError('NEN_MALFORMED', `${m} without nen-body header`);
    headerRecord = decodeHeaderRecord(hb);
    if (!headerRecord) throw wireError('NEN_MALFORMED', 'nen-body is not base64url');
  } else {
    const want = stream ? MEDIA_TYPE.stream : MEDIA_TYPE.sealed;
    // The exact media type (what every Nen client sends) without splitting or case folding.
    if (headers.get('content-type') !== want) {
      const ct = mediaType(headers).toLowerCase();
      if (ct !== want) throw wireError('NEN_CONTENT_TYPE', `content-type ${JSON.stringify(ct.slice(0, 60))}, want ${want}`);
    }
  }
  return { meta, method: m, origin, path, search, contentType, confidential, stream, headerRecord, sid, retry, retryValue };
}

/**
 * Origin, path and query of an absolute URL. A Request's `url` is already WHATWG-serialized, so
 * slicing it gives exactly what `new URL(raw)` would (at a fraction of the cost, on every request);
 * anything unusual (credentials, a fragment, no path) goes through URL.
 */
function splitUrl(raw: string): { origin: string; path: string; search: string } {
  const s = raw.indexOf('://');
  const p = s < 0 ? -1 : raw.indexOf('/', s + 3);
  if (p < 0 || raw.includes('#') || raw.lastIndexOf('@', p) > s) {
    const u = new URL(raw);
    return { origin: u.origin, path: u.pathname, search: u.search };
  }
  const q = raw.indexOf('?', p);
  if (q < 0) return { origin: raw.slice(0, p), path: raw.slice(p), search: '' };
  return { origin: raw.slice(0, p), path: raw.slice(p, q), search: q === raw.length - 1 ? '' : raw.slice(q) };
}

/** Largest sealed body to read for a plaintext limit (tag, and the confidential query's room). */
export function sealedBodyLimit(head: RequestHead, plaintextLimit: number): number {
  return plaintextLimit + AEAD_TAG_LENGTH + (head.confidential ? 2 + 65535 : 0);
}

function requestAadOf(head: RequestHead, scratch: boolean): Uint8Array {
  return requestAad(head.meta, head.method, head.path + head.search, head.contentType, head.retryValue, scratch);
}

/** AEAD-opens a sealed request (server); NEN_AUTH_FAILED when it does not authenticate. */
export function openRequest(head: RequestHead, keys: EnvelopeKeys, sealed: Uint8Array): Uint8Array {
  const aad = requestAadOf(head, true);
  try {
    return openMessage(keys.c2s, keys.c2sIv, head.meta.seq, aad, sealed);
  } catch (e) {
    if (e instanceof NenProtocolError) throw e;
    throw wireError('NEN_AUTH_FAILED', 'AEAD authentication failed (tampered body, tag, bound header, method, path or query)');
  }
}

/** The record opener of a streamed request (server), with the server's error codes. */
export function openRequestStream(head: RequestHead, keys: EnvelopeKeys): RecordOpener {
  return new RecordOpener(keys.c2s, keys.c2sIv, head.meta.seq, requestAadOf(head, false), (kind, detail) =>
    kind === 'auth'
      ? wireError('NEN_AUTH_FAILED', detail)
      : kind === 'truncated'
        ? wireError('NEN_STREAM_TRUNCATED', detail)
        : wireError('NEN_MALFORMED', `stream ${kind}: ${detail}`),
  );
}

/**
 * The opened plaintext → (confidential query, body) (server, after the store commit): unpacks the
 * query, inflates a compressed body within `limit`, and enforces `limit`.
 */
export function decodeRequestPlaintext(
  head: RequestHead,
  opened: Uint8Array,
  limit: number,
  inflate: (b: Uint8Array, limit: number) => Uint8Array,
): { query: string | null; body: Uint8Array } {
  let plain = opened;
  let query: string | null = null;
  if (head.confidential) {
    const u = unpackConfidentialQuery(plain);
    try {
      query = fromUtf8(u.query);
    } catch {
      throw wireError('NEN_MALFORMED', 'confidential query is not UTF-8');
    }
    plain = u.body;
  }
  if (head.meta.flags & REQ_FLAG.COMPRESSED) plain = inflate(plain, limit);
  if (plain.length > limit) throw wireError('NEN_TOO_LARGE', `body ${plain.length} > limit ${limit}`);
  return { query, body: plain };
}
