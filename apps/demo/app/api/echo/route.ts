/**
 * Encrypted echo for the bench and the wire page. POST returns the decrypted body with its content
 * type (the same `echo` function serves the unencrypted twin at /api/plain/echo); GET echoes the
 * method, path and query it authenticated.
 */
import { nen } from '../../../lib/nen';
import { echo } from '../../../lib/echo';
import { count } from '../../../lib/metrics';

export const POST = nen.withNen(async (request, _context, body) => echo(request, body, 'nen'));

export const GET = nen.withNen(async (request) => {
  count('echo.get');
  const url = new URL(request.url);
  return { method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams) };
});
