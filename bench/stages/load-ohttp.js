/**
 * Part of the load stage (issue 23): Oblivious HTTP against plain on the real server, `next start`
 * of the demo pinned to one core (lib/pin.js), the "1 KB throughput >= 0.8x plain on the
 * pinned server". The OHTTP client (@nen/client `mode: 'ohttp'`, the bench's transport) posts
 * every 1 KB request encapsulated to the demo's own gateway (`/.well-known/ohttp-gateway`), whose
 * inner request reaches the same `withNen` echo session mode uses (`POST /api/echo`); plain is
 * the 1 KB `POST /api/plain/echo`, as in the other variants. Interleaved slices, c=50, the server
 * CPU per request of each mode. The ohttp stage's own figure (against a bare node:http echo) is
 * the lean-server floor; this one is the application's.
 *
 * Pitfalls: the key config is read from the gateway (GET, the first config: X-Wing) and not
 * pinned, as the bench's session clients are unpinned; every request is a fresh encapsulation
 * (and a replay-id claim in the demo's store, bounded by its TTL and maxClaims). Skipped with a
 * note when the target has no gateway (404) or the server cannot be pinned. Both modes are warmed
 * with 4,000 requests first (300 with --quick; env NEN_BENCH_OHTTP_WARMUP; at most 20 s each): on
 * Node 20 V8 keeps optimising the gateway's path until ~4,000 requests (bench/README.md, OHTTP
 * tenth and eleventh passes: no deopts, TurboFan's tier-up of once-per-request functions). Each
 * mode gets 10 s (twice --duration, at most 5), as the headline pinned variants: a full
 * mark-compact (~80 ms) landing in one mode's slices moves the ratio by ~±0.03 (env
 * NEN_BENCH_OHTTP_SECONDS; twelfth pass).
 *
 * Alone (twelfth pass): `TARGET_URL=http://127.0.0.1:PORT node bench/stages/load-ohttp.js
 * [--duration 5] [--runs N]` against a running `next start` of the demo (NEN_BENCH_METRICS=1,
 * which reports its pid): this variant only, N times in a row, one JSON line per run; the whole
 * load stage takes ~4 min, this ~25 s a run.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createContext } from '../lib/context.js';
import { runInterleaved, runSlice } from '../lib/driver.js';
import { fetchMetrics } from '../lib/memory.js';
import { parseOptions } from '../lib/options.js';
import { createServerCpuProbe } from '../lib/servercpu.js';
import { createAgent, parseTargets } from '../lib/transport.js';
import { ECHO_1K } from '../lib/payloads.js';
import { pinUnavailable, withPinning } from '../lib/pin.js';
import { round } from '../lib/stats.js';
import { echoOps, modeRatios } from './echo-ops.js';

const GATEWAY = '/.well-known/ohttp-gateway';

function emptyMode() {
  return { requests: 0, errors: 0, errorKinds: {}, errorSamples: [], rps: null, latencyMs: { p50: null, p99: null }, client: {}, server: null };
}

/** The gateway's first key configuration (application/ohttp-keys: 2-byte length, config, ...), or null. */
async function firstKeyConfig(ctx) {
  const res = await ctx.plainFetch(ctx.url(GATEWAY), { method: 'GET' });
  const list = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200 || list.length < 2) return null;
  const n = (list[0] << 8) | list[1];
  return list.length >= 2 + n ? list.slice(2, 2 + n) : null;
}

/**
 * The OHTTP 1 KB variant on the pinned server: `ohttp-1k-pinned` (one record, as the other
 * variants).
 */
export async function runOhttpVariants(ctx) {
  const { durationSeconds, sliceSeconds, quick } = ctx.options;
  // 10 s per mode, as the headline pinned variants (load-variants.js variantSeconds): a ~80 ms
  // mark-compact every ~3,000 1 KB requests lands in one mode's slice; twice the window halves
  // the variance of that lottery (twelfth pass: the figures in bench/README.md)
  const seconds = quick ? 0.5 : Number(process.env.NEN_BENCH_OHTTP_SECONDS ?? 2 * Math.min(durationSeconds, 5));
  const slice = Math.min(sliceSeconds, seconds);
  const pids = ctx.serverCpu?.pids ?? [];
  const v = { id: 'ohttp-1k-pinned', size: 1024, concurrency: 50, compression: 'off', cores: 'pinned', kind: 'ohttp' };
  const skip = (why) => [{ ...v, skipped: true, note: `not run: ${why}`, encrypted: emptyMode(), plain: emptyMode(), ratio: {}, bytes: null }];
  const noPin = ctx.options.pin === false ? 'disabled (--no-pin)' : pinUnavailable({ pids, cores: ctx.cores });
  if (noPin) return skip(noPin);
  const keyConfig = await firstKeyConfig(ctx);
  if (!keyConfig) return skip(`no OHTTP gateway at ${GATEWAY}`);
  const client = await ctx.makeClient({ mode: 'ohttp', relay: ctx.url(GATEWAY), keyConfig });
  const ops = echoOps(ctx, client, ECHO_1K);
  const modes = { encrypted: ops.encrypted, plain: ops.plain };
  // Warm both modes to steady state before measuring (tenth pass): the plain route is hot from
  // the variants before this one, but a fresh gateway path costs ~2x per request until V8 has
  // optimised it (in process, Node 20: ~230 µs for requests 100-300, ~205 for 300-1,000, ~115
  // after 1,000); with one warm-up request the 5 s window measured that warm-up (at load 1-2,
  // both orders: +0.264 / +0.278 ms over plain with one, +0.195 / +0.210 with 2,000). Eleventh
  // pass: under `next start` TurboFan still compiled 28 / 16 functions in OHTTP requests
  // 2,001-3,000 / 3,001-4,000 and ~0 after (in process 127 / 115 µs, then 112), so 2,000 left
  // the window in the tail of the warm-up: 4,000.
  const warm = Number(process.env.NEN_BENCH_OHTTP_WARMUP ?? (quick ? 300 : 4000));
  for (const op of [modes.encrypted, modes.plain]) await runSlice({ op, concurrency: v.concurrency, requests: Math.max(1, warm), durationMs: 20_000 });
  ctx.progress?.detail(`variant ${v.id}`);
  const r = await withPinning({ pids }, () =>
    runInterleaved({ modes, concurrency: v.concurrency, durationMs: seconds * 1000, sliceMs: slice * 1000, cores: ctx.cores, serverCpu: ctx.serverCpu }),
  );
  const oh = r.encrypted.server?.cpuMsPerRequest;
  const pl = r.plain.server?.cpuMsPerRequest;
  const rec = {
    ...v,
    encrypted: r.encrypted,
    plain: r.plain,
    ratio: modeRatios(r),
    serverCpuMsOverPlain: typeof oh === 'number' && typeof pl === 'number' ? round(oh - pl, 3) : null,
    bytes: null,
    note: `encrypted = OHTTP to the demo's gateway (${GATEWAY}, inner POST /api/echo); plain = 1 KB echo`,
    secondsPerMode: seconds,
  };
  ctx.progress?.log(
    `  variant ${v.id} (c=${v.concurrency}): OHTTP ${r.encrypted.rps} req/s | plain ${r.plain.rps} req/s | ratio ${rec.ratio.rps}` +
      (oh !== undefined ? ` | server CPU ms/req ${oh}/${pl} (+${rec.serverCpuMsOverPlain})` : ''),
  );
  return [rec];
}

/** The variant alone against TARGET_URL (see the header), `runs` times: one JSON line per run. */
async function main() {
  const { values } = parseArgs({ options: { duration: { type: 'string' }, runs: { type: 'string' } }, strict: true });
  const options = parseOptions(['--levels', '50', '--duration', values.duration ?? '5']);
  const targets = parseTargets(options.target);
  const agent = createAgent({ connections: 82 });
  try {
    const m = await fetchMetrics(targets[0], agent);
    const serverCpu = createServerCpuProbe(m.ok && Number.isInteger(m.metrics.pid) ? [m.metrics.pid] : []);
    const ctx = createContext({ targets, options, agent, progress: null, cores: os.cpus().length, serverCpu });
    for (let i = 0; i < Number(values.runs ?? 1); i++) {
      const [v] = await runOhttpVariants(ctx);
      const mode = (x) => ({ rps: x.rps, p50: x.latencyMs.p50, p99: x.latencyMs.p99, errors: x.errors, serverCpuMs: x.server?.cpuMsPerRequest ?? null });
      const line = { at: new Date().toISOString(), load: os.loadavg()[0], ratio: v.ratio?.rps ?? null, serverCpuMsOverPlain: v.serverCpuMsOverPlain ?? null };
      console.log(JSON.stringify({ ...line, ohttp: mode(v.encrypted), plain: mode(v.plain), note: v.skipped ? v.note : undefined }));
    }
  } finally {
    await agent.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().catch((e) => {
    console.error(e?.stack ?? e);
    process.exitCode = 1;
  });
}
