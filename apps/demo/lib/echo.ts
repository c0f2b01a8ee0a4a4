/**
 * The one echo handler shared by the encrypted route (POST /api/echo, through `withNen`) and the
 * plain route (POST /api/plain/echo), so the bench compares the same application work with and
 * without Nen.
 *
 * Pitfall: both routes must hand this function the body in the same shape `withNen` does: parsed
 * JSON when the content type is JSON, raw bytes otherwise (the plain route: readBodyLikeNen).
 */
import { count } from './metrics';

export async function echo(request: Request, body: unknown, route: 'nen' | 'plain'): Promise<Response> {
  count(`echo.${route}`);
  return echoResponse(request, body);
}

/**
 * The encrypted route's echo, in each framework's idiom: a `withNen` handler returns the value
 * (README Quick start; `withNen` seals it as `application/json`), the plain route returns
 * `Response.json`. A returned Response costs ~10 µs more per request under `withNen` (its body is
 * read back through a web stream before sealing; measured in-process). Same application work: the
 * count and the body echoed; other content types fall back to the Response.
 */
export async function echoNen(request: Request, body: unknown): Promise<unknown> {
  count('echo.nen');
  const contentType = request.headers.get('content-type');
  if (contentType === 'application/json' && body !== undefined && body !== null && !(body instanceof Uint8Array)) return body;
  return echoResponse(request, body);
}

function echoResponse(request: Request, body: unknown): Response {
  const contentType = request.headers.get('content-type') ?? 'application/octet-stream';
  if (body instanceof Uint8Array) {
    return new Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers: { 'content-type': contentType } });
  }
  if (body === undefined || body === null) {
    return new Response(null, { status: 204 });
  }
  return Response.json(body, { headers: { 'content-type': contentType } });
}

/** What `withNen` does to a plaintext body, for the plain route: JSON parsed, anything else bytes. */
export async function readBodyLikeNen(request: Request): Promise<unknown> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength === 0) return undefined;
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  if (/^application\/([\w.+-]*\+)?json\b/.test(contentType)) {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  }
  return bytes;
}
