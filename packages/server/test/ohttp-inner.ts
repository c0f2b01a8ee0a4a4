/**
 * The OHTTP tests' inner request (src/ohttp/gateway.test.ts in process, test/workers/ohttp-workerd.test.ts
 * on workerd): a Binary HTTP POST of `body` as JSON to https://app.example`path`, with the
 * content-type and the Date header the gateway checks against its replay window.
 *
 * Pitfall: `date` defaults to now; pass one outside the gateway's window to test the Date check
 * (it is rendered with toUTCString, i.e. to the second).
 */
import type { BhttpRequest } from '@nen/core';

export function inner(path: string, body: unknown, date = new Date()): BhttpRequest {
  return {
    method: 'POST',
    scheme: 'https',
    authority: 'app.example',
    path,
    headers: [
      ['content-type', 'application/json'],
      ['date', date.toUTCString()],
    ],
    content: new TextEncoder().encode(JSON.stringify(body)),
    trailers: [],
  };
}
