/**
 * Binary HTTP (RFC 9292): requests and responses in known-length (framing 0 / 1) and
 * indeterminate-length (framing 2 / 3) form, with strict bounds.
 *
 * Public API:
 *  - encodeBhttpRequest(req, { indeterminate }) / decodeBhttpRequest(bytes, limits)
 *  - encodeBhttpResponse(res, { indeterminate }) / decodeBhttpResponse(bytes, limits)
 *  - streaming encoder pieces for an indeterminate-length response (the gateway streams a
 *    handler's body): encodeBhttpResponseHead, encodeBhttpContentChunk, encodeBhttpResponseTail.
 * Field names are lowercase ASCII strings, values byte strings as JS strings of code points
 * 0..255 (latin1, what fetch's Headers hold).
 *
 * Pitfalls:
 *  - Truncation (§3.8): a message may end after its control data, header section or content;
 *    missing parts decode as empty. A message ending anywhere else is invalid. Padding after the
 *    trailer section must be all zeros.
 *  - Field names must be tokens (RFC 9110 §5.1); this rules out pseudo-fields (":method"...),
 *    which §3.6 makes invalid. Values must not hold NUL / CR / LF or leading / trailing
 *    whitespace (RFC 9113 §8.2.1). Uppercase names are accepted and lowercased.
 *  - Decoded content is a view into the input (no copy; a caller that reuses its input buffer
 *    must copy first). The gateway and clients decode freshly opened AEAD plaintexts.
 *  - Every count and length is bounded (BhttpLimits) before any allocation: a declared length
 *    past the input or past a limit is refused (NEN_OHTTP_BHTTP / NEN_TOO_LARGE), never a crash.
 */
import { wireError } from '../protocol/codes.js';
import { concatBytes } from '../protocol/bytes.js';
import { ByteReader, ByteWriter, Truncated, varintLength } from './varint.js';

export type FieldLine = readonly [name: string, value: string];

export interface BhttpRequest {
  readonly method: string;
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly headers: readonly FieldLine[];
  readonly content: Uint8Array;
  readonly trailers: readonly FieldLine[];
}

export interface BhttpResponse {
  readonly informational: readonly { readonly status: number; readonly headers: readonly FieldLine[] }[];
  readonly status: number;
  readonly headers: readonly FieldLine[];
  readonly content: Uint8Array;
  readonly trailers: readonly FieldLine[];
}

export interface BhttpLimits {
  /** Field lines per section (default 256). */
  readonly maxFields?: number;
  /** Bytes of names and values per section (default 64 KiB). */
  readonly maxFieldBytes?: number;
  /** Content bytes (default 8 MiB). */
  readonly maxContent?: number;
}

const MAX_INFORMATIONAL = 8;
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+\-.]*$/;
const BAD_VALUE = /[\0\r\n]|^[ \t]|[ \t]$/;
const BAD_TARGET = /[\0-\x20\x7f-\xff]/;

function invalid(reason: string): Error {
  return wireError('NEN_OHTTP_BHTTP', `binary HTTP: ${reason}`);
}

/**
 * Bytes as a latin1 string (code points 0..255). Not TextDecoder('latin1'): WHATWG maps that label
 * to windows-1252 (0x80..0x9f differ). Short strings (the field names and values) in a loop.
 */
function latin1(b: Uint8Array): string {
  if (b.length <= 32) {
    let s = '';
    for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i] as number);
    return s;
  }
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode.apply(null, b.subarray(i, i + 8192) as unknown as number[]);
  return s;
}

function checkField(name: string, value: string): void {
  if (!TCHAR.test(name)) throw invalid('field name is not a token');
  if (BAD_VALUE.test(value)) throw invalid(`field ${name} has a forbidden value`);
}

/*
 * Encoding: one exact-size buffer per message. A size pass validates and measures (latin1
 * strings are one byte per code unit), a write pass fills a ByteWriter; no per-field arrays.
 */

function prefixedLen(n: number): number {
  return varintLength(n) + n;
}

function latin1Into(w: ByteWriter, s: string, what: string): void {
  if (!w.latin1(s)) throw invalid(`${what} holds a character above U+00FF`);
}

/** Validates the field lines and returns the bytes of their encoding (without the section's framing). */
function linesLen(fields: readonly FieldLine[]): number {
  let n = 0;
  for (const [name, v] of fields) {
    checkField(name.toLowerCase(), v);
    n += prefixedLen(name.length) + prefixedLen(v.length);
  }
  return n;
}

function sectionLen(lines: number, indeterminate: boolean): number {
  return indeterminate ? lines + 1 : prefixedLen(lines);
}

function writeSection(w: ByteWriter, fields: readonly FieldLine[], lines: number, indeterminate: boolean): void {
  if (!indeterminate) w.varint(lines);
  for (const [n, v] of fields) {
    w.varint(n.length);
    latin1Into(w, n.toLowerCase(), 'field name');
    w.varint(v.length);
    latin1Into(w, v, 'field value');
  }
  if (indeterminate) w.varint(0);
}

function contentLen(body: Uint8Array, indeterminate: boolean): number {
  if (!indeterminate) return prefixedLen(body.length);
  return (body.length === 0 ? 0 : prefixedLen(body.length)) + 1;
}

function writeContent(w: ByteWriter, body: Uint8Array, indeterminate: boolean): void {
  if (!indeterminate || body.length > 0) {
    w.varint(body.length);
    w.bytes(body);
  }
  if (indeterminate) w.varint(0);
}

export function encodeBhttpRequest(req: BhttpRequest, opts: { indeterminate?: boolean } = {}): Uint8Array {
  const ind = opts.indeterminate === true;
  if (!TCHAR.test(req.method)) throw invalid('method is not a token');
  if (!SCHEME.test(req.scheme)) throw invalid('invalid scheme');
  if (BAD_TARGET.test(req.authority) || BAD_TARGET.test(req.path)) throw invalid('invalid authority or path');
  const cd = [req.method, req.scheme, req.authority, req.path];
  const h = linesLen(req.headers);
  const t = linesLen(req.trailers);
  let size = 1 + sectionLen(h, ind) + contentLen(req.content, ind) + sectionLen(t, ind);
  for (const s of cd) size += prefixedLen(s.length);
  const w = new ByteWriter(size);
  w.varint(ind ? 2 : 0);
  for (const s of cd) {
    w.varint(s.length);
    latin1Into(w, s, 'control data');
  }
  writeSection(w, req.headers, h, ind);
  writeContent(w, req.content, ind);
  writeSection(w, req.trailers, t, ind);
  return w.finish();
}

function checkStatus(status: number, informational: boolean): void {
  const ok = informational ? status >= 100 && status <= 199 : status >= 200 && status <= 599;
  if (!Number.isInteger(status) || !ok) throw invalid(`status ${status} out of range`);
}

export function encodeBhttpResponse(res: BhttpResponse, opts: { indeterminate?: boolean } = {}): Uint8Array {
  const ind = opts.indeterminate === true;
  const info = res.informational.map((i) => {
    checkStatus(i.status, true);
    return linesLen(i.headers);
  });
  checkStatus(res.status, false);
  const h = linesLen(res.headers);
  const t = linesLen(res.trailers);
  let size = 1 + varintLength(res.status) + sectionLen(h, ind) + contentLen(res.content, ind) + sectionLen(t, ind);
  res.informational.forEach((i, k) => {
    size += varintLength(i.status) + sectionLen(info[k] as number, ind);
  });
  const w = new ByteWriter(size);
  w.varint(ind ? 3 : 1);
  res.informational.forEach((i, k) => {
    w.varint(i.status);
    writeSection(w, i.headers, info[k] as number, ind);
  });
  w.varint(res.status);
  writeSection(w, res.headers, h, ind);
  writeContent(w, res.content, ind);
  writeSection(w, res.trailers, t, ind);
  return w.finish();
}

/** Indeterminate-length response up to its content: framing 3, status, header section. */
export function encodeBhttpResponseHead(status: number, headers: readonly FieldLine[]): Uint8Array {
  checkStatus(status, false);
  const h = linesLen(headers);
  const w = new ByteWriter(1 + varintLength(status) + sectionLen(h, true));
  w.varint(3);
  w.varint(status);
  writeSection(w, headers, h, true);
  return w.finish();
}

/** One content chunk of an indeterminate-length message (empty input: nothing, 0 would end it). */
export function encodeBhttpContentChunk(chunk: Uint8Array): Uint8Array {
  if (chunk.length === 0) return new Uint8Array(0);
  const w = new ByteWriter(prefixedLen(chunk.length));
  w.varint(chunk.length);
  w.bytes(chunk);
  return w.finish();
}

/** The content terminator and the trailer section of an indeterminate-length message. */
export function encodeBhttpResponseTail(trailers: readonly FieldLine[] = []): Uint8Array {
  const t = linesLen(trailers);
  const w = new ByteWriter(1 + sectionLen(t, true));
  w.varint(0);
  writeSection(w, trailers, t, true);
  return w.finish();
}

interface Limits {
  maxFields: number;
  maxFieldBytes: number;
  maxContent: number;
}

function limitsOf(l: BhttpLimits): Limits {
  return { maxFields: l.maxFields ?? 256, maxFieldBytes: l.maxFieldBytes ?? 65536, maxContent: l.maxContent ?? 8 * 1024 * 1024 };
}

function readLine(r: ByteReader, nameLen: number, budget: { bytes: number }): FieldLine {
  if (nameLen === 0) throw invalid('empty field name');
  if (nameLen > budget.bytes) throw wireError('NEN_TOO_LARGE', 'binary HTTP field section over its limit');
  const name = latin1(r.bytes(nameLen)).toLowerCase();
  budget.bytes -= nameLen;
  const valueLen = r.varint();
  if (valueLen > budget.bytes) throw wireError('NEN_TOO_LARGE', 'binary HTTP field section over its limit');
  const value = latin1(r.bytes(valueLen));
  budget.bytes -= valueLen;
  checkField(name, value);
  return [name, value];
}

function readSection(r: ByteReader, ind: boolean, lim: Limits): FieldLine[] {
  const out: FieldLine[] = [];
  if (r.remaining === 0) return out;
  const budget = { bytes: lim.maxFieldBytes };
  if (!ind) {
    const len = r.varint();
    if (len > lim.maxFieldBytes + 16 * lim.maxFields) throw wireError('NEN_TOO_LARGE', 'binary HTTP field section over its limit');
    const sub = new ByteReader(r.bytes(len));
    while (sub.remaining > 0) {
      if (out.length >= lim.maxFields) throw wireError('NEN_TOO_LARGE', 'too many binary HTTP field lines');
      out.push(readLine(sub, sub.varint(), budget));
    }
    return out;
  }
  for (;;) {
    const nameLen = r.varint();
    if (nameLen === 0) return out;
    if (out.length >= lim.maxFields) throw wireError('NEN_TOO_LARGE', 'too many binary HTTP field lines');
    out.push(readLine(r, nameLen, budget));
  }
}

function readContent(r: ByteReader, ind: boolean, lim: Limits): Uint8Array {
  if (r.remaining === 0) return new Uint8Array(0);
  if (!ind) {
    const len = r.varint();
    if (len > lim.maxContent) throw wireError('NEN_TOO_LARGE', 'binary HTTP content over its limit');
    return r.bytes(len);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const len = r.varint();
    if (len === 0) return chunks.length === 1 ? (chunks[0] as Uint8Array) : concatBytes(...chunks);
    total += len;
    if (total > lim.maxContent) throw wireError('NEN_TOO_LARGE', 'binary HTTP content over its limit');
    chunks.push(r.bytes(len));
  }
}

function readPadding(r: ByteReader): void {
  for (let i = r.pos; i < r.buf.length; i++) if (r.buf[i] !== 0) throw invalid('non-zero padding or trailing bytes');
}

function framing(r: ByteReader, request: boolean): boolean {
  const f = r.varint();
  if (request && (f === 0 || f === 2)) return f === 2;
  if (!request && (f === 1 || f === 3)) return f === 3;
  throw invalid(`framing indicator ${f} is not a ${request ? 'request' : 'response'}`);
}

function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof Truncated) throw invalid('message truncated inside a field');
    if (e instanceof RangeError) throw invalid('integer out of range');
    throw e;
  }
}

export function decodeBhttpRequest(bytes: Uint8Array, limits: BhttpLimits = {}): BhttpRequest {
  const lim = limitsOf(limits);
  return guard(() => {
    const r = new ByteReader(bytes);
    const ind = framing(r, true);
    const cd: string[] = [];
    for (let i = 0; i < 4; i++) {
      const len = r.varint();
      if (len > lim.maxFieldBytes) throw wireError('NEN_TOO_LARGE', 'binary HTTP control data over its limit');
      cd.push(latin1(r.bytes(len)));
    }
    const [method, scheme, authority, path] = cd as [string, string, string, string];
    if (!TCHAR.test(method) || !SCHEME.test(scheme) || BAD_TARGET.test(authority) || BAD_TARGET.test(path)) throw invalid('invalid request control data');
    if (!path.startsWith('/') && !(path === '*' && method === 'OPTIONS')) throw invalid('request path must start with /');
    const headers = readSection(r, ind, lim);
    const body = readContent(r, ind, lim);
    const trailers = readSection(r, ind, lim);
    readPadding(r);
    return { method, scheme, authority, path, headers, content: body, trailers };
  });
}

export function decodeBhttpResponse(bytes: Uint8Array, limits: BhttpLimits = {}): BhttpResponse {
  const lim = limitsOf(limits);
  return guard(() => {
    const r = new ByteReader(bytes);
    const ind = framing(r, false);
    const informational: { status: number; headers: FieldLine[] }[] = [];
    let status = r.varint();
    while (status >= 100 && status <= 199) {
      if (informational.length >= MAX_INFORMATIONAL) throw invalid('too many informational responses');
      informational.push({ status, headers: readSection(r, ind, lim) });
      status = r.varint();
    }
    checkStatus(status, false);
    const headers = readSection(r, ind, lim);
    const body = readContent(r, ind, lim);
    const trailers = readSection(r, ind, lim);
    readPadding(r);
    return { informational, status, headers, content: body, trailers };
  });
}
