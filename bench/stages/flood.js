/**
 * Optional stage `flood` (not in the default run: `--flood` or `--only flood`; it waits 60 s):
 * 10,000 handshakes that are never used (issue 10 item 2, THREAT_MODEL.md property 12), then what
 * the session store holds at the start, right after the flood, and 60 s later. Unconfirmed
 * sessions end after NEN_UNCONFIRMED_TTL (default 30 s), so the store must be back at its
 * baseline by then.
 *
 * Store figures: with `--redis` (the bench's Redis accounting, lib/redisinfo.js), the keys
 * (INFO keyspace, = DBSIZE summed over nodes) and `used_memory`; per target, the demo's bench
 * metrics route (NEN_BENCH_METRICS=1): live sessions (`nen.store.size()`) and the heap. The
 * memory store drops expired sessions on its 30 s sweep, so +60 s covers TTL + one sweep.
 *
 * Pitfalls: the flood is bounded by the server's per-instance handshake ceiling
 * (NEN_HANDSHAKES_PER_SECOND, default 2000/s): 429 answers are counted, not failures. The
 * per-address limit does not apply unless the server trusts a proxy (NEN_TRUST_PROXY).
 */
import { runSlice, createAccumulator, finish } from '../lib/driver.js';
import { fetchMetrics } from '../lib/memory.js';

const TOTAL = 10_000;
const WAIT_MS = 60_000;

async function storeFigures(ctx) {
  const out = { redis: null, targets: {} };
  if (ctx.redis) {
    const r = await ctx.redis.read();
    out.redis = { keys: r.keys, usedMemoryBytes: r.usedMemory };
  }
  for (const base of ctx.targets) {
    try {
      const m = await fetchMetrics(base, ctx.metricsAgent);
      out.targets[base] = m.ok
        ? { storeKind: m.metrics.storeKind, sessions: m.metrics.sessions, heapUsedBytes: m.metrics.heapUsed, rssBytes: m.metrics.rss }
        : { status: m.status };
    } catch (e) {
      out.targets[base] = { error: String(e?.message ?? e) };
    }
  }
  return out;
}

function line(label, f) {
  const parts = [];
  if (f.redis) parts.push(`redis keys ${f.redis.keys}, used_memory ${(f.redis.usedMemoryBytes / 2 ** 20).toFixed(2)} MiB`);
  for (const [base, t] of Object.entries(f.targets)) {
    if (t.sessions !== undefined) parts.push(`${base}: sessions ${t.sessions}, heap ${(t.heapUsedBytes / 2 ** 20).toFixed(1)} MiB`);
  }
  return `  flood ${label}: ${parts.join('; ') || 'no store figures (start the target with NEN_BENCH_METRICS=1, pass --redis for Redis)'}`;
}

export async function run(ctx) {
  const baseline = await storeFigures(ctx);
  ctx.progress?.log(line('baseline', baseline));
  let rateLimited = 0;
  const acc = createAccumulator(TOTAL);
  const t0 = Date.now();
  await runSlice({
    concurrency: 50,
    requests: TOTAL,
    acc,
    op: async () => {
      const client = await ctx.makeClient();
      try {
        await client.handshake();
      } catch (e) {
        if (e?.code === 'NEN_RATE_LIMITED') {
          rateLimited++;
          return;
        }
        throw e;
      }
      ctx.countRequest();
    },
    onRequest: () => {
      const done = acc.completed + acc.errors;
      if (done % 1000 === 0) ctx.progress?.detail(`flood ${done}/${TOTAL}`);
    },
  });
  const floodMs = Date.now() - t0;
  const r = finish(acc, { cores: ctx.cores });
  const atEnd = await storeFigures(ctx);
  ctx.progress?.log(`  flood: ${TOTAL} handshakes in ${(floodMs / 1000).toFixed(1)} s (${rateLimited} answered 429), errors ${r.errors}`);
  ctx.progress?.log(line('at end', atEnd));
  for (let waited = 0; waited < WAIT_MS; waited += 5000) {
    ctx.progress?.detail(`flood: waiting ${(WAIT_MS - waited) / 1000} s for unconfirmed sessions to expire`);
    await new Promise((res) => setTimeout(res, 5000).unref());
  }
  const after60 = await storeFigures(ctx);
  ctx.progress?.log(line('+60 s', after60));
  const backToBaseline = (() => {
    if (after60.redis && baseline.redis && after60.redis.keys > baseline.redis.keys) return false;
    for (const [base, t] of Object.entries(after60.targets)) {
      const b = baseline.targets[base];
      if (typeof t.sessions === 'number' && typeof b?.sessions === 'number' && t.sessions > b.sessions) return false;
    }
    return true;
  })();
  const data = {
    handshakes: TOTAL,
    floodSeconds: floodMs / 1000,
    handshakesPerSecond: r.rps,
    rateLimited,
    errors: r.errors,
    baseline,
    atEnd,
    after60s: after60,
    backToBaseline,
  };
  if (r.errors > 0) return { ok: false, failure: `flood: ${r.errors} handshakes failed`, data };
  if (!backToBaseline) return { ok: false, failure: 'flood: the store did not return to its baseline 60 s after the flood', data };
  return { ok: true, data };
}
