/**
 * The gateway's answers from an inner Response: read whole with a bound (message/ohttp-res) or
 * streamed as chunked OHTTP (message/ohttp-chunked-res): the response_nonce, one chunk with the
 * Binary HTTP head (indeterminate length), one chunk per body read, and the final chunk with the
 * content terminator and an empty trailer section.
 *
 * Pitfalls:
 *  - A body that fails midway ends the chunked answer without its final chunk: the client sees
 *    NEN_OHTTP_TRUNCATED, never a silently shortened body.
 *  - Cancelling the outer stream cancels the inner body (the handler's stream stops).
 *  - A body read larger than MAX_PIECE is split: every chunk carries at most 16 KiB of content,
 *    what the draft requires every receiver to take (@nen/client and the Go client refuse
 *    chunks over 64 KiB; one 100 KB read used to become one 100 KB chunk, NEN_TOO_LARGE).
 */
import {
  type ChunkedResponseSealer,
  NenProtocolError,
  OHTTP_MEDIA,
  encodeBhttpContentChunk,
  encodeBhttpResponseHead,
  encodeBhttpResponseTail,
  joinChunks,
} from '@nen/core';
import { InnerResponse } from './inner-response.js';
import { responseFields } from './messages.js';

/** Content bytes per chunk of a chunked answer (draft-ietf-ohai-chunked-ohttp: receivers take 16 KiB). */
const MAX_PIECE = 16 * 1024;

export async function readBounded(res: Response, limit: number): Promise<Uint8Array> {
  // a handler's value (inner-response.ts): its bytes as they are, no stream in between
  const plain = res instanceof InnerResponse ? InnerResponse.plainOf(res) : null;
  if (plain) {
    if (plain.body.length > limit) throw new NenProtocolError('NEN_TOO_LARGE', 'nen: inner response over the gateway limit', { status: 413 });
    return plain.body;
  }
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    total += r.value.length;
    if (total > limit) {
      reader.cancel().catch(() => undefined);
      throw new NenProtocolError('NEN_TOO_LARGE', 'nen: inner response over the gateway limit', { status: 413 });
    }
    chunks.push(r.value);
  }
  return joinChunks(chunks, total);
}

export function chunkedAnswer(sealer: ChunkedResponseSealer, answer: Response): Response {
  const reader = answer.body?.getReader();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (!started) {
        started = true;
        c.enqueue(sealer.start());
        c.enqueue(sealer.sealChunk(encodeBhttpResponseHead(answer.status, responseFields(answer))));
        return;
      }
      const r = reader ? await reader.read() : { done: true as const, value: undefined };
      if (r.done) {
        c.enqueue(sealer.sealChunk(encodeBhttpResponseTail(), true));
        c.close();
        return;
      }
      for (let o = 0; o < r.value.length; o += MAX_PIECE) {
        const framed = sealer.sealChunk(encodeBhttpContentChunk(r.value.subarray(o, o + MAX_PIECE)));
        if (framed.length > 0) c.enqueue(framed);
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': OHTTP_MEDIA.CHUNKED_RESPONSE, 'cache-control': 'no-store', incremental: '?1' } });
}
