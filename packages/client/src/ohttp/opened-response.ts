/**
 * The application's Response for a non-chunked OHTTP answer on Node: ../opened.ts's
 * OpenedResponse (text() / json() / arrayBuffer() straight from the opened bytes, a stream-backed
 * twin only for `body`, bytes(), blob(), formData(), clone()) with its headers taken from the
 * Binary HTTP response's field lines when the application first reads `headers` (most never do).
 * Against `new Response(bytes, { headers })` + text() this skips a Headers, undici's body stream
 * and its reader per request (issue 23: the client's Response is part of what bounds the pinned
 * OHTTP req/s; bench/README.md OHTTP "Ninth pass").
 *
 * Pitfalls:
 *  - Loaded by ./client.ts in the background on Node only (never in a browser's OHTTP chunk, as
 *    ../response.ts does for session mode); until it is there the plain Response is built.
 *  - The field lines are appended by ./client.ts's `appendLines` (passed in as `fill`: no module
 *    shared with the OHTTP chunk, so no extra lazy chunk in a browser build), once, on the first
 *    read of `headers` (or by the stream-backed twin).
 */
import { OpenedResponse } from '../opened.js';

export class OhttpOpenedResponse extends OpenedResponse {
  #fill: ((h: Headers) => void) | null;

  /** `fill` appends the answer's headers to this Response's own, once, when they are first read. */
  constructor(bytes: Uint8Array, status: number, fill: (h: Headers) => void) {
    super(bytes, { status });
    this.#fill = fill;
  }

  override filled(h: Headers): Headers {
    const fill = this.#fill;
    if (fill) {
      this.#fill = null;
      fill(h);
    }
    return h;
  }
}
