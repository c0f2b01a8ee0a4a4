/**
 * The Response the application gets for an encrypted request: the wire status, the wire headers
 * minus Nen's and the sealed body's framing, the plaintext content type, and the body.
 *
 * An opened single body is whole in memory: on Node (and runtimes that say they are Node) it
 * becomes an `OpenedResponse` (./opened.ts, loaded once in the background when this module loads,
 * never in browsers: not in their initial bundle), which reads from those bytes without a body
 * stream; elsewhere, and until that module is there, a Response with the bytes as its body.
 *
 * Pitfall: headers are appended one by one: a header list in `init` goes through undici's WebIDL
 * sequence conversion (a copy of every pair; several µs per response on Node 20). An
 * OpenedResponse appends them only when the application first reads `headers` (most never do).
 */
import { appendAppHeaders } from './transport.js';

type Opened = new (bytes: Uint8Array, init: ResponseInit, wire: Headers, contentType: string) => Response;
let opened: Opened | undefined;
if (globalThis.process?.versions?.node) {
  import('./opened.js').then(
    (m) => {
      opened = m.OpenedResponse;
    },
    () => {}, // the byte-body path stays
  );
}

/** The application's Response around `body` (null: no body; a stream: a streamed response; bytes: an opened single body). */
export function appResponse(body: Uint8Array | ReadableStream<Uint8Array> | null, res: Response, contentType: string): Response {
  const init: ResponseInit = { status: res.status, statusText: res.statusText };
  if (body instanceof Uint8Array && opened) return new opened(body, init, res.headers, contentType); // headers filled when first read
  const out = new Response(body as BodyInit | null, init);
  appendAppHeaders(out.headers, res.headers, contentType);
  return out;
}
