/**
 * Optional stage `soak` (not in the default run; `--only soak` or `--soak N`): N encrypted echo
 * requests (default 100,000) at concurrency 50 spread over 10 live sessions, to show the server's
 * memory stays flat on live sessions (target in docs/design.md, performance targets: ≤ +20 MB after warm-up). Memory comes from
 * the background sampler; the figure is the RSS/heap change from the end of the first 10 % of
 * requests (warm-up) to the end, and the least-squares growth per 1,000 requests.
 */
import { runSlice, createAccumulator, finish } from '../lib/driver.js';
import { round } from '../lib/stats.js';
import { summarizeMemory } from '../lib/memory.js';
import { echoOps } from './echo-ops.js';

const MiB = 2 ** 20;

export async function run(ctx) {
  const total = ctx.options.soakRequests;
  const sessions = 10;
  const clients = [];
  for (let i = 0; i < sessions; i++) {
    const c = await ctx.makeClient();
    await c.handshake();
    clients.push(echoOps(ctx, c).encrypted);
  }
  const acc = createAccumulator(200_000);
  const startRequests = ctx.requests;
  await ctx.sampler?.sampleOnce();
  await runSlice({
    concurrency: 50,
    requests: total,
    acc,
    op: (w) => clients[w % sessions](),
    onRequest: () => {
      const done = acc.completed + acc.errors;
      if (done % 500 === 0) ctx.progress?.detail(`soak ${done}/${total}`);
    },
  });
  await ctx.sampler?.sampleOnce();
  const r = finish(acc, { cores: ctx.cores });
  const samples = (ctx.sampler?.samples ?? []).filter((s) => s.stage === 'soak');
  const perTarget = {};
  for (const base of ctx.targets) {
    const s = samples.filter((x) => x.target === base);
    if (s.length < 2) {
      perTarget[base] = { samples: s.length };
      continue;
    }
    const warmAt = startRequests + total * 0.1;
    const warm = s.find((x) => x.requests >= warmAt) ?? s[0];
    const last = s[s.length - 1];
    perTarget[base] = {
      samples: s.length,
      rssAfterWarmupMiB: round(warm.rss / MiB, 1),
      rssEndMiB: round(last.rss / MiB, 1),
      rssChangeAfterWarmupMiB: round((last.rss - warm.rss) / MiB, 1),
      heapChangeAfterWarmupMiB: typeof last.heapUsed === 'number' ? round((last.heapUsed - warm.heapUsed) / MiB, 1) : null,
      sessionsEnd: last.sessions,
      ...(summarizeMemory(s, [base])[base] ?? {}),
    };
  }
  for (const [base, m] of Object.entries(perTarget)) {
    ctx.progress?.log(
      `  soak ${base}: ${r.requests} requests, ${r.rps} req/s, errors ${r.errors}; RSS after warm-up ${m.rssAfterWarmupMiB} → ${m.rssEndMiB} MiB (${m.rssChangeAfterWarmupMiB} MiB), heap change ${m.heapChangeAfterWarmupMiB} MiB`,
    );
  }
  const failure = r.errors > 0 ? `soak: ${r.errors} errors (${JSON.stringify(r.errorKinds)})` : null;
  return {
    ok: failure === null,
    failure,
    data: {
      requests: total,
      concurrency: 50,
      sessions,
      result: r,
      memory: perTarget,
      targetNote: 'docs/design.md: flat, <= +20 MB after warm-up over 100k requests on live sessions',
    },
  };
}
