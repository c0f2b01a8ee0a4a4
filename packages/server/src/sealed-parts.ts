/**
 * A sealed response as its parts (status, a flat header list, the sealed body) instead of a Web
 * Response: what `withNen`'s route gives an adapter that writes the answer to its server itself
 * (`@nen/server/node`, through wrap.ts `SEALED_PARTS`). On Node 20 an undici Response makes its
 * body a web stream (transferable, ~10 µs and its garbage per response), and reading it back to
 * the socket is another stream read; the parts go to `ServerResponse.writeHead` / `end` as they are.
 *
 * Pitfalls:
 *  - The same answer as respond.ts `sealed()`: the same sealing (sealResponseChunks is sealResponse
 *    with the body unjoined; HEAD seals an empty body), the handler's headers except those
 *    REPLACED_RESPONSE_HEADERS names, `cache-control: no-store` unless the handler set its own,
 *    the sealed content-length, Server-Timing when on.
 *    A change to one belongs in the other (test/adapters compares both surfaces' answers).
 *  - `headers` is flat (name, value, name, value, ...), as `writeHead` takes an array; repeated
 *    names (set-cookie) stay separate entries.
 */
import type { Opened, ServerContext } from './pipeline.js';
import { type PlainResult, REPLACED_RESPONSE_HEADERS, sealRecord, timingHeader } from './respond.js';

/** A sealed answer for an adapter to write itself. */
export interface SealedParts {
  readonly status: number;
  readonly statusText: string;
  /** Flat: name, value, name, value, ... */
  readonly headers: string[];
  /**
   * The sealed body as arrays to write in order (core `sealResponseChunks`: a large body's
   * ciphertext and tag unjoined); null when the record travels in `nen-body` (HEAD, null-body status).
   */
  readonly body: Uint8Array[] | null;
}

/** `res` sealed for the request `o`, compressed when allowed and the client accepts it, as parts. */
export function sealedParts(ctx: ServerContext, res: PlainResult, o: Opened, compress: boolean): SealedParts {
  const timing = ctx.s.serverTiming;
  const t0 = timing ? performance.now() : 0;
  const out = sealRecord(res, o, compress);
  const headers: string[] = [];
  for (const [k, v] of out.headers) headers.push(k, v);
  let cacheControl = false;
  if (res.headers) {
    res.headers.forEach((v, k) => {
      if (REPLACED_RESPONSE_HEADERS.has(k)) return;
      if (k === 'cache-control') cacheControl = true;
      headers.push(k, v);
    });
  }
  if (!cacheControl) headers.push('cache-control', 'no-store');
  if (out.body) {
    let n = 0;
    for (const c of out.body) n += c.length;
    headers.push('content-length', String(n));
  }
  if (timing) headers.push('server-timing', timingHeader(o, performance.now() - t0));
  return { status: res.status, statusText: res.statusText, headers, body: out.body };
}
