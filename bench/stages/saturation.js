/**
 * Stage `saturation` (opt-in: `--only saturation`; each cell of `scripts/main.sh --grid` runs it):
 * for each payload size (`--payloads`, default 1 KB and 100 KB realistic JSON) the concurrency is
 * ramped (`--ramp`, short `--window` per mode per step, encrypted and plain interleaved) until the
 * encrypted p99 exceeds `--budget-p99` (default 100 ms) or errors appear; the knee is the last
 * step inside the budget (lib/saturation.js). Per step: req/s, p50/p99, errors, server CPU ms per
 * request (local targets), Redis commands per request (`--redis`). Then one handshake window
 * (handshakes/s, server CPU and Redis commands per handshake, bytes per session in Redis) and the
 * servers' memory before and after.
 *
 * Sessions: several clients (at least one per instance). With `--sticky` each client keeps to one
 * instance (session affinity, as a load balancer with sticky sessions would route): the only way a
 * memory store works behind several instances. Without it every request goes to the next instance
 * (shared Redis store). Plain requests always go round-robin (they carry no session).
 */
import { runInterleaved, runSlice, createAccumulator, finish } from '../lib/driver.js';
import { findKnee, breach, rampUntilSaturated } from '../lib/saturation.js';
import { realisticJson } from '../lib/payloads.js';
import { fetchMetrics } from '../lib/memory.js';
import { commandsBetween, callsBetween, usecBetween } from '../lib/redisinfo.js';
import { ratio, round } from '../lib/stats.js';
import { echoOps } from './echo-ops.js';

const MiB = 2 ** 20;

function label(size) {
  return size >= 1024 ? `${round(size / 1024, 1)} KB` : `${size} B`;
}

/** Sum of rss / heapUsed / sessions over the targets (nulls when the metrics route is off). */
async function memorySnapshot(ctx) {
  let rss = 0;
  let heapUsed = 0;
  let sessions = 0;
  let seen = 0;
  for (const base of ctx.targets) {
    try {
      const r = await fetchMetrics(base, ctx.metricsAgent ?? ctx.agent);
      if (!r.ok) continue;
      rss += r.metrics.rss ?? 0;
      heapUsed += r.metrics.heapUsed ?? 0;
      sessions += typeof r.metrics.sessions === 'number' ? r.metrics.sessions : 0;
      seen++;
    } catch {
      /* a missed sample is not an error of the system under test */
    }
  }
  return seen ? { rssMiB: round(rss / MiB, 1), heapUsedMiB: round(heapUsed / MiB, 1), sessions, instances: seen } : null;
}

function redisCounter(ctx) {
  if (!ctx.redis) return {};
  return {
    redisCommands: async () => {
      const snap = await ctx.redis.read();
      return { ...snap, since: (prev) => commandsBetween(prev, snap) };
    },
    redisCpuUs: async () => {
      const snap = await ctx.redis.read();
      return { ...snap, since: (prev) => snap.cpuUs - prev.cpuUs };
    },
    redisEvalshaUs: async () => {
      const snap = await ctx.redis.read();
      return { ...snap, since: (prev) => usecBetween(prev, snap, 'evalsha') };
    },
    redisEvalsha: async () => {
      const snap = await ctx.redis.read();
      return { ...snap, since: (prev) => callsBetween(prev, snap, 'evalsha') };
    },
  };
}

function stepRecord(concurrency, r) {
  const mode = (m) => ({
    rps: m.rps,
    requests: m.requests,
    errors: m.errors,
    errorKinds: m.errorKinds,
    p50Ms: m.latencyMs.p50,
    p99Ms: m.latencyMs.p99,
    serverCpuMsPerRequest: m.server?.cpuMsPerRequest ?? null,
    redisCommandsPerRequest: m.counters?.redisCommands?.perRequest ?? null,
    redisEvalshaPerRequest: m.counters?.redisEvalsha?.perRequest ?? null,
    redisCpuUsPerRequest: m.counters?.redisCpuUs?.perRequest ?? null,
    /** script execution time only (commandstats usec of EVALSHA); redisCpuUs adds I/O and event loop */
    redisEvalshaUsPerRequest: m.counters?.redisEvalshaUs?.perRequest ?? null,
    clientCpuShare: m.client.cpuShareOfMachine,
  });
  const encrypted = mode(r.encrypted);
  const plain = mode(r.plain);
  return {
    concurrency,
    encrypted,
    plain,
    ratio: {
      rps: ratio(encrypted.rps, plain.rps),
      p99: ratio(encrypted.p99Ms, plain.p99Ms),
      serverCpuPerRequest: ratio(encrypted.serverCpuMsPerRequest, plain.serverCpuMsPerRequest),
    },
  };
}

async function makeClients(ctx, count) {
  const clients = [];
  for (let i = 0; i < count; i++) {
    const stickyTarget = ctx.options.sticky ? ctx.targets[i % ctx.targets.length] : undefined;
    const c = await ctx.makeClient({ stickyTarget });
    await c.handshake();
    clients.push(c);
  }
  return clients;
}

async function rampPayload(ctx, clients, size) {
  const { ramp, windowSeconds, budgetP99Ms } = ctx.options;
  const body = realisticJson(size, 1000 + size);
  const ops = clients.map((c) => echoOps(ctx, c, body));
  const modes = { encrypted: (w) => ops[w % ops.length].encrypted(), plain: () => ops[0].plain() };
  // warm-up: JIT, connections, route compilation on every instance (not measured)
  const warm = ctx.options.quick ? 20 : 100 * ctx.targets.length;
  for (const name of ['encrypted', 'plain']) await runSlice({ op: modes[name], concurrency: 4, requests: warm });
  const steps = await rampUntilSaturated({
    ramp,
    measure: async (c) => {
      ctx.progress?.detail(`saturation ${label(size)} c=${c}`);
      const r = await runInterleaved({
        modes,
        concurrency: c,
        durationMs: windowSeconds * 1000,
        sliceMs: (windowSeconds * 1000) / 2,
        cores: ctx.cores,
        serverCpu: ctx.serverCpu,
        counters: redisCounter(ctx),
      });
      return stepRecord(c, r);
    },
    broken: (s) => breach({ ...s.encrypted }, budgetP99Ms) !== null,
    onStep: (s) =>
      ctx.progress?.log(
        `  saturation ${label(size)} c=${s.concurrency}: enc ${s.encrypted.rps} req/s p99 ${s.encrypted.p99Ms} ms | plain ${s.plain.rps} req/s p99 ${s.plain.p99Ms} ms` +
          (s.encrypted.serverCpuMsPerRequest !== null ? ` | server CPU ms/req ${s.encrypted.serverCpuMsPerRequest}/${s.plain.serverCpuMsPerRequest}` : '') +
          (s.encrypted.redisCommandsPerRequest !== null
            ? ` | redis cmds/req ${s.encrypted.redisCommandsPerRequest} (EVALSHA ${s.encrypted.redisEvalshaPerRequest}, Redis CPU ${s.encrypted.redisCpuUsPerRequest} µs, script ${s.encrypted.redisEvalshaUsPerRequest} µs)`
            : '') +
          (s.encrypted.errors || s.plain.errors ? ` | errors ${s.encrypted.errors}/${s.plain.errors}` : ''),
      ),
  });
  const kneeEncrypted = findKnee(
    steps.map((s) => ({ concurrency: s.concurrency, ...s.encrypted })),
    { budgetP99Ms },
  );
  const kneePlain = findKnee(
    steps.map((s) => ({ concurrency: s.concurrency, ...s.plain })),
    { budgetP99Ms },
  );
  const at = kneeEncrypted.knee ? steps.find((s) => s.concurrency === kneeEncrypted.knee.concurrency) : null;
  return {
    size,
    label: label(size),
    steps,
    knee: { encrypted: kneeEncrypted, plain: kneePlain },
    atKnee: at,
  };
}

async function handshakeWindow(ctx) {
  const { windowSeconds } = ctx.options;
  const concurrency = 8;
  const acc = createAccumulator();
  const redisBefore = ctx.redis ? await ctx.redis.read().catch(() => null) : null;
  const memBefore = await memorySnapshot(ctx);
  const cpuBefore = ctx.serverCpu ? ctx.serverCpu() : null;
  ctx.progress?.detail('saturation handshakes');
  await runSlice({
    concurrency,
    durationMs: Math.max(1, windowSeconds * 2) * 1000,
    acc,
    op: async (w) => {
      const stickyTarget = ctx.options.sticky ? ctx.targets[w % ctx.targets.length] : undefined;
      const client = await ctx.makeClient({ stickyTarget });
      await client.handshake();
      if (!client.session?.id) throw Object.assign(new Error('handshake produced no session'), { code: 'MISMATCH' });
      ctx.countRequest();
    },
  });
  const cpuAfter = ctx.serverCpu ? ctx.serverCpu() : null;
  const redisAfter = ctx.redis ? await ctx.redis.read().catch(() => null) : null;
  const memAfter = await memorySnapshot(ctx);
  const r = finish(acc, { cores: ctx.cores });
  // per-handshake figures only from a window without errors (an error answer, e.g. a 429 from the
  // server's ceiling, costs less than a handshake; the errors fail the stage below)
  const n = r.errors ? null : r.requests || null;
  const redisCmds = commandsBetween(redisBefore, redisAfter);
  const out = {
    concurrency,
    handshakesPerSecond: r.rps,
    handshakes: r.requests,
    errors: r.errors,
    errorKinds: r.errorKinds,
    p50Ms: r.latencyMs.p50,
    p99Ms: r.latencyMs.p99,
    serverCpuMsPerHandshake: cpuBefore !== null && n ? round((cpuAfter - cpuBefore) / n, 3) : null,
    redisCommandsPerHandshake: redisCmds !== null && n ? round(redisCmds / n, 2) : null,
    redisEvalshaPerHandshake: redisBefore && redisAfter && n ? round(callsBetween(redisBefore, redisAfter, 'evalsha') / n, 2) : null,
    redisCpuUsPerHandshake: redisBefore && redisAfter && n ? round((redisAfter.cpuUs - redisBefore.cpuUs) / n, 1) : null,
    redisBytesPerSession: redisBefore && redisAfter && n ? Math.round((redisAfter.usedMemory - redisBefore.usedMemory) / n) : null,
    redisKeysAdded: redisBefore && redisAfter ? redisAfter.keys - redisBefore.keys : null,
    heapBytesPerSession: memBefore && memAfter && n && !ctx.redis ? Math.round(((memAfter.heapUsedMiB - memBefore.heapUsedMiB) * MiB) / n) : null,
  };
  ctx.progress?.log(
    `  saturation handshakes c=${concurrency}: ${out.handshakesPerSecond}/s p99 ${out.p99Ms} ms errors ${out.errors}` +
      (out.serverCpuMsPerHandshake !== null ? ` | server CPU ${out.serverCpuMsPerHandshake} ms/handshake` : '') +
      (out.redisCommandsPerHandshake !== null ? ` | redis ${out.redisCommandsPerHandshake} cmds, ${out.redisBytesPerSession} B per session` : ''),
  );
  return out;
}

export async function run(ctx) {
  const memStart = await memorySnapshot(ctx);
  const clients = await makeClients(ctx, Math.max(4, ctx.targets.length));
  const payloads = [];
  let failure = null;
  for (const size of ctx.options.payloads) {
    const p = await rampPayload(ctx, clients, size);
    payloads.push(p);
    const first = p.steps[0];
    if (first && (first.encrypted.errors > 0 || first.plain.errors > 0 || !(first.encrypted.requests > 0))) {
      failure ??= `saturation ${p.label}: errors at the first step c=${first.concurrency} (${JSON.stringify(first.encrypted.errorKinds)} / ${JSON.stringify(first.plain.errorKinds)})`;
    }
    const k = p.knee.encrypted;
    ctx.progress?.log(
      `  saturation ${p.label}: knee ${k.knee ? `c=${k.knee.concurrency}, ${k.knee.rps} req/s, p99 ${k.knee.p99Ms} ms` : 'none (first step already over budget)'}` +
        (k.brokeAt ? `; broke at c=${k.brokeAt.concurrency} (${k.brokeAt.reason})` : '; ramp ended inside the budget'),
    );
  }
  const handshakes = await handshakeWindow(ctx);
  if (handshakes.errors > 0) failure ??= `saturation handshakes: ${handshakes.errors} errors (${JSON.stringify(handshakes.errorKinds)})`;
  const memEnd = await memorySnapshot(ctx);
  return {
    ok: failure === null,
    failure,
    data: {
      cell: ctx.options.cell ?? null,
      kem: ctx.options.kem,
      sticky: ctx.options.sticky,
      routing: ctx.options.sticky
        ? 'sticky: each client keeps to one instance (session affinity)'
        : ctx.targets.length > 1
          ? 'round-robin: every request to the next instance (shared store)'
          : 'one instance',
      instances: ctx.targets.length,
      sessions: clients.length,
      budgetP99Ms: ctx.options.budgetP99Ms,
      ramp: ctx.options.ramp,
      windowSecondsPerMode: ctx.options.windowSeconds,
      redisNodes: ctx.redis?.nodes ?? [],
      payloads,
      handshakes,
      memory: { start: memStart, end: memEnd },
    },
  };
}
