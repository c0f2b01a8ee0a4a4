/**
 * The OHTTP gateway's outer answers, two ways: as a Web Response (every surface: Next.js, Edge,
 * Hono, Workers) or as their parts (status, flat headers, body) for the node:http adapter, which
 * writes them with `writeHead` + `end` (`@nen/server/node`, through the gateway's SEALED_PARTS
 * entry, as `withNen`'s sealed answers: sealed-parts.ts). The gateway's one dispatch takes either
 * set (./gateway.ts `post`); only the last step differs.
 *
 * Pitfalls:
 *  - Byte-identical on the wire: the node adapter writes a Response's headers in the order
 *    undici's Headers iterates them (names sorted), so the parts list them sorted too; a problem
 *    answer has no content-length (Node frames it chunked, as the Response's streamed body), the
 *    message/ohttp-res answer has one. A change to one way belongs in the other
 *    (test/adapters/ohttp-parts.test.ts compares both over real HTTP).
 *  - Why (bench/README.md, OHTTP twelfth pass): on node:http the outer undici Response (its body
 *    a web stream, read back by `sendWebResponse`) cost ~0.17-0.25 ms of a cold request.
 *  - Chunked answers (message/ohttp-chunked-res) stream: they stay Responses (./stream.ts).
 */
import { OHTTP_MEDIA, WIRE_ERRORS, type WireErrorCode } from '@nen/core';
import type { SealedParts } from '../sealed-parts.js';

/** How the gateway hands back an outer answer: one implementation per way. */
export interface OuterAnswers<R> {
  /** An `application/problem+json` answer with Nen's code (`code` member and `nen-error` header). */
  readonly problem: (code: WireErrorCode, type?: string, extra?: Record<string, string>) => R;
  /** message/ohttp-res: the encapsulated response, of known length. */
  readonly sealed: (body: Uint8Array) => R;
}

function problemBody(code: WireErrorCode, type: string): string {
  return JSON.stringify({ type, title: WIRE_ERRORS[code].message, code });
}

function problemHeaders(code: WireErrorCode, extra: Record<string, string>): Record<string, string> {
  return { 'content-type': 'application/problem+json', 'cache-control': 'no-store', 'nen-error': code, ...extra };
}

/** An `application/problem+json` answer with Nen's code (`code` member and `nen-error` header). */
export function problem(code: WireErrorCode, type = 'about:blank', extra: Record<string, string> = {}): Response {
  return new Response(problemBody(code, type), { status: WIRE_ERRORS[code].status, headers: problemHeaders(code, extra) });
}

function sealedResponse(body: Uint8Array): Response {
  // known length: Content-Length, so a server writes head and body without chunked framing
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: { 'content-type': OHTTP_MEDIA.RESPONSE, 'cache-control': 'no-store', 'content-length': String(body.length) },
  });
}

/** The outer answers as Web Responses. */
export const RESPONSES: OuterAnswers<Response> = { problem, sealed: sealedResponse };

const encoder = new TextEncoder();

function problemParts(code: WireErrorCode, type = 'about:blank', extra: Record<string, string> = {}): SealedParts {
  const fields = problemHeaders(code, extra);
  const headers: string[] = [];
  // sorted by name, as undici's Headers iterates them (all names here are lower case)
  for (const name of Object.keys(fields).sort()) headers.push(name, fields[name] as string);
  return { status: WIRE_ERRORS[code].status, statusText: '', headers, body: [encoder.encode(problemBody(code, type))] };
}

function sealedParts(body: Uint8Array): SealedParts {
  return {
    status: 200,
    statusText: '',
    headers: ['cache-control', 'no-store', 'content-length', String(body.length), 'content-type', OHTTP_MEDIA.RESPONSE],
    body: [body],
  };
}

/** The outer answers as parts, for the node:http adapter. */
export const PARTS: OuterAnswers<SealedParts> = { problem: problemParts, sealed: sealedParts };
