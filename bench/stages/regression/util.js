/**
 * Helpers of the regression stage (stages/regression.js): byte concatenation, flipping one byte,
 * cloning a captured request, rewriting one field of the `nen` header, and splitting an
 * `application/nen-stream` body into its records. Pitfalls: a captured request's body may be
 * shared with the client, so mutate only clones (cloneReq); stream framing is u32 big-endian
 * length || sealed record (PROTOCOL.md).
 */
/** Byte concatenation (local: @nen/core keeps its byte helpers internal). */
export function concatBytes(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.byteLength;
  }
  return out;
}

export const CHECK_TIMEOUT_MS = 30_000;

export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`${what}: no answer within ${ms} ms`), { code: 'BENCH_TIMEOUT' })), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

export const isSessionUrl = (url) => new URL(url).pathname.includes('/api/nen/');

export function flipByte(bytes, index) {
  const out = new Uint8Array(bytes);
  out[index] ^= 0x01;
  return out;
}

export function cloneReq(req) {
  return { method: req.method, url: req.url, headers: { ...req.headers }, body: req.body ? new Uint8Array(req.body) : req.body };
}

/** Replace field `i` of the request `nen` header. */
export function mutateNenField(req, i, f) {
  const parts = String(req.headers.nen ?? '').split('.');
  parts[i] = f(parts[i] ?? '');
  req.headers.nen = parts.join('.');
  return req;
}

export function describeError(e) {
  return `${e?.name ?? 'Error'}${e?.code ? ' ' + e.code : ''}${e?.status ? ' (status ' + e.status + ')' : ''}`;
}

/** Parse an application/nen-stream body into its framed records (u32 BE length || sealed). */
export function splitRecords(bytes) {
  const records = [];
  let o = 0;
  while (o + 4 <= bytes.length) {
    const len = new DataView(bytes.buffer, bytes.byteOffset + o, 4).getUint32(0);
    if (o + 4 + len > bytes.length) break;
    records.push(bytes.subarray(o, o + 4 + len));
    o += 4 + len;
  }
  return { records, rest: bytes.length - o };
}
