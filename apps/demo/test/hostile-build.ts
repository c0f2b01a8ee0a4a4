/**
 * The hostile-input table's types and the builders its rows share (hostile-cases.ts assembles the
 * rows from hostile-cases-*.ts): raw `nen` headers, sealed-looking POSTs, requests captured from a
 * real @nen/client and then damaged in exactly one field, ClientHello bytes.
 *
 * Pitfalls:
 *  - `hdr()` reads the clock when the row is built, not when the table is loaded: a row built late
 *    still carries a fresh timestamp.
 *  - Builders return new arrays every call; a row may mutate what it gets back.
 */
import type { RawRequest } from './live';

export interface Captured {
  readonly method: string;
  readonly path: string;
  readonly headers: Array<[string, string]>;
  readonly body: Uint8Array;
}

export interface CaseContext {
  /** Seal a request with a live session (fresh sequence number) without sending it. */
  capture(method: string, path: string, init?: { body?: string; contentType?: string }): Promise<Captured>;
  /** The live session id (base64url) of the capturing client. */
  readonly sessionId: string;
  /** The server's pinned X-Wing public key (a valid X-Wing encapsulation key). */
  readonly serverPublicKey: Uint8Array;
  /** The server's key id. */
  readonly kid: string;
  /** A unique fake client address for handshake rows. */
  addr(): string;
}

export interface Expectation {
  readonly status: number;
  /** The `nen-error` header (and JSON error.code); null when Nen is not the one answering. */
  readonly code: string | null;
}

export interface Built {
  /** Requests sent first, in order, each with the status it must get. */
  readonly pre?: ReadonlyArray<{ req: RawRequest; status: number }>;
  readonly req: RawRequest;
}

export interface HostileCase {
  readonly id: string;
  readonly group: 'header' | 'sequence' | 'content-type' | 'body' | 'binding' | 'handshake' | 'session' | 'abuse';
  readonly title: string;
  /** What goes on the wire, for the table. */
  readonly input: string;
  readonly expect: Expectation;
  /** 'raw': build → rawRequest; 'flood' / 'trickle' / 'abandon': dedicated runners in hostile.test.ts. */
  readonly runner?: 'raw' | 'flood' | 'trickle' | 'abandon';
  build?(ctx: CaseContext): Promise<Built> | Built;
}

export const SID0 = 'AAAAAAAAAAAAAAAAAAAAAA'; // 16 zero bytes, base64url: a well-formed but unknown session
export const now = () => Date.now();
export const hdr = (
  sid: string,
  seq: string | number | bigint = 1,
  opts: { v?: string; epoch?: string | number; ts?: string | number; flags?: string | number } = {},
) => `${opts.v ?? '1'}.${sid}.${opts.epoch ?? 0}.${seq}.${opts.ts ?? now()}.${opts.flags ?? 0}`;
export const sealedPost = (nen: string, extra: Array<[string, string]> = [], body: Uint8Array | string = new Uint8Array(32)): RawRequest => ({
  method: 'POST',
  path: '/api/echo',
  headers: [['content-type', 'application/nen'], ['nen', nen], ['nen-type', 'application/json'], ...extra],
  body,
});

export function replaceHeader(c: Captured, name: string, value: string | null): Array<[string, string]> {
  const out = c.headers.filter(([k]) => k !== name);
  if (value !== null) out.push([name, value]);
  return out;
}

export function fromCaptured(c: Captured, patch: { headers?: Array<[string, string]>; body?: Uint8Array; path?: string; method?: string } = {}): RawRequest {
  return { method: patch.method ?? c.method, path: patch.path ?? c.path, headers: patch.headers ?? c.headers, body: patch.body ?? c.body };
}

export function nenField(c: Captured, index: number, value: string): string {
  const v = c.headers.find(([k]) => k === 'nen')?.[1] ?? '';
  const f = v.split('.');
  f[index] = value;
  return f.join('.');
}

export function clientHello(kem: number, pk: Uint8Array, flags = 0, extra: Uint8Array = new Uint8Array(0), version = 1): Uint8Array {
  const b = new Uint8Array(8 + pk.length + extra.length);
  b[0] = version;
  b[1] = kem >> 8;
  b[2] = kem & 0xff;
  b[3] = flags;
  b.set(pk, 8);
  b.set(extra, 8 + pk.length);
  return b;
}

export const XWING = 0x647a;
export const MLKEM768 = 0x0041;

export function handshakeReq(ctx: CaseContext, body: Uint8Array | string, contentType = 'application/nen-handshake'): RawRequest {
  return {
    method: 'POST',
    path: '/api/nen/handshake',
    headers: [
      ['content-type', contentType],
      ['x-forwarded-for', ctx.addr()],
    ],
    body,
  };
}

/** A live-session capture of `POST /api/echo` with a JSON body. */
export const captureJson = (ctx: CaseContext, body: string): Promise<Captured> => ctx.capture('POST', '/api/echo', { body, contentType: 'application/json' });

/** `POST /api/echo` with the given content type and `nen` header (and nothing else Nen reads). */
export const typedPost = (contentType: string, nen: string, extra: Array<[string, string]> = []): RawRequest => ({
  ...sealedPost(nen),
  headers: [['content-type', contentType], ['nen', nen], ...extra],
});

/** `GET /api/echo` with the given headers only. */
export const getEcho = (headers: Array<[string, string]>): RawRequest => ({ method: 'GET', path: '/api/echo', headers });

/** A streamed upload to `/api/stream` on the live session with sequence number `seq`. */
export const streamPost = (ctx: CaseContext, seq: number, body: Uint8Array): RawRequest => ({
  method: 'POST',
  path: '/api/stream',
  headers: [
    ['content-type', 'application/nen-stream'],
    ['nen', hdr(ctx.sessionId, seq, { flags: 4 })],
    ['nen-type', 'application/octet-stream'],
  ],
  body,
});

/** A session action (`/api/nen/<action>`) with a `nen` header and a 16-byte body. */
export const sessionAction = (action: string, nen: string): RawRequest => ({
  method: 'POST',
  path: `/api/nen/${action}`,
  headers: [
    ['content-type', 'application/nen'],
    ['nen', nen],
  ],
  body: new Uint8Array(16),
});
