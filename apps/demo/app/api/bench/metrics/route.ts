/**
 * Bench-only metrics, plain JSON: process memory (rss, heapUsed, heapTotal, external, arrayBuffers), live Nen sessions, counters, the store kind.
 * Enabled only with NEN_BENCH_METRICS=1; otherwise the route answers 404 like any unknown path.
 *
 * Pitfalls:
 *  - Plaintext and unauthenticated by design (process internals, counts): never enable it on a
 *    deployment that faces anyone but the bench.
 *  - `?gc=1` runs a full collection first (only under --expose-gc): it stalls the server, so the
 *    bench asks for it only between measurement windows.
 */
import { nen } from '../../../../lib/nen';
import { snapshot } from '../../../../lib/metrics';
import { notesRepo } from '../../../../lib/notes';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  if (process.env.NEN_BENCH_METRICS !== '1') return new Response('Not Found', { status: 404 });
  // ?gc=1: a full collection first, when the server runs with --expose-gc (bench/memory-attribution.js)
  const gc = (globalThis as { gc?: () => void }).gc;
  if (new URL(request.url).searchParams.get('gc') === '1' && gc) gc();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  let sessions: number | null = null;
  try {
    sessions = await nen.store.size();
  } catch {
    sessions = null;
  }
  const repo = await notesRepo();
  const notes = await repo.size().catch(() => null);
  return Response.json(
    {
      rss,
      heapUsed,
      heapTotal,
      external,
      arrayBuffers,
      sessions,
      counters: snapshot(),
      storeKind: nen.store.kind,
      notesKind: repo.kind,
      notes,
      pid: process.pid,
      gc: Boolean(gc),
      uptime: process.uptime(),
    },
    { headers: { 'cache-control': 'no-store' } },
  );
}
