/**
 * Encrypted echo for the bench and the wire page. POST returns the decrypted body with its content
 * type (`echoNen`: the value itself for JSON, as a `withNen` handler is written; the unencrypted
 * twin at /api/plain/echo returns `Response.json`); GET echoes the method, path and query it
 * authenticated.
 *
 * Pitfall: POST opts into compression inside the envelope (`compress: true`): it applies only when the client
 * asks for it (`createNenClient({ compress: true })`), and an echo mixes no server secret with
 * attacker-chosen bytes, so the CRIME/BREACH caveat of THREAT_MODEL.md does not bite here.
 */
import { nen } from '../../../lib/nen';
import { echoNen } from '../../../lib/echo';
import { count } from '../../../lib/metrics';

export const POST = nen.withNen(async (request, _context, body) => echoNen(request, body), { compress: true });

export const GET = nen.withNen(async (request) => {
  count('echo.get');
  const url = new URL(request.url);
  return { method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams) };
});

// The remaining methods, for the conformance kit's real-traffic suite (conformance/runner/real.mjs):
// PUT and PATCH echo like POST; DELETE and OPTIONS answer a sealed 204; HEAD a sealed GET.
export const PUT = POST;
export const PATCH = POST;
export const DELETE = nen.withNen(async () => new Response(null, { status: 204 }));
export const OPTIONS = DELETE;
export const HEAD = GET;
