/**
 * The OHTTP tests' inner messages (src/ohttp/gateway.test.ts in process, test/workers/ohttp-workerd.test.ts
 * on workerd, test/adapters/ohttp.test.ts behind each adapter): `inner`, a Binary HTTP POST of `body`
 * as JSON to https://app.example`path`, with the content-type and the Date header the gateway
 * checks against its replay window; `openChunkedResponse`, the inner response of a chunked answer.
 *
 * Pitfalls: `date` defaults to now; pass one outside the gateway's window to test the Date check
 * (it is rendered with toUTCString, i.e. to the second). A chunked answer is only authentic once
 * its final chunk verified: `openChunkedResponse` reads to the end and calls the opener's end().
 */
import { type BhttpRequest, type BhttpResponse, type ChunkedResponseOpener, decodeBhttpResponse } from '@nen/core';

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

/** The inner Binary HTTP response of a chunked OHTTP answer: `res`'s body read chunk by chunk through `opener`, then its final chunk. */
export async function openChunkedResponse(res: Response, opener: ChunkedResponseOpener): Promise<BhttpResponse> {
  const parts: Uint8Array[] = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(...opener.push(r.value));
  parts.push(opener.end());
  return decodeBhttpResponse(Buffer.concat(parts));
}
