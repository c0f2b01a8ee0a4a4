/**
 * Part of the load stage (issue 11): the encrypted/plain comparison at the sizes API calls have
 * and in the setting a browser really gets, plus memory growth attributed to each mode.
 *
 * Variants: 1 KB JSON at c=50 and 100 KB JSON at c=10, each
 *  - compression `off`: no Accept-Encoding on either route, no in-envelope compression;
 *  - compression `realistic`: Next.js's default gzip on (it is), both routes send Accept-Encoding
 *    as a browser does (`gzip, deflate, br, zstd`, decoded like fetch), and the encrypted client
 *    compresses inside the envelope (`compress: true`; POST /api/echo opts in);
 * and each on `shared` cores and, when the target is local, `pinned` (server on core 0, bench on
 * core 1: lib/pin.js). Encrypted and plain run in interleaved slices; the response bytes on the
 * wire are counted (mean per request) next to the throughput, with compression ratios
 * (plaintext bytes / wire bytes).
 *
 * Handshake variants (`handshake-shared`, `handshake-pinned`): fresh clients pinned to the server
 * key (GET /api/nen/keys, the default a Next.js app gets) each doing one full handshake, interleaved
 * with the 1 KB plain echo at c=50: handshakes/s vs plain req/s and the server CPU per handshake
 * against per plain request (issue 11: ≥ 0.75×, ≤ plain + 0.3 ms), and how busy each side's core
 * was (`coresBusy`: the server's and this load generator's CPU in cores, so a run says which side
 * bounded the handshakes/s; issue 21); a window with errors (e.g. 429s from the server's
 * per-instance ceiling) gives no server CPU per handshake, only its errors. They run after the memory
 * windows: their thousands of unconfirmed sessions (alive for NEN_UNCONFIRMED_TTL) would otherwise
 * show up as heap growth there.
 *
 * Memory attribution: a plain-only window, then an encrypted-only window (1 KB, c=10); the
 * metrics route is sampled at the window edges and every second, tagged `load:<mode>-only`, and
 * RSS / heap growth per 1,000 requests is fitted per window.
 *
 * Pitfall: the variant windows are short (min(--duration, 5) s per mode, twice that for the pinned
 * `off` ones: `variantSeconds`); they give ratios, not capacity figures. The pinned server has one core, so its req/s is lower by design.
 */
import { runInterleaved, runSlice, createAccumulator } from '../lib/driver.js';
import { ratio, round } from '../lib/stats.js';
import { ECHO_1K, realisticJson } from '../lib/payloads.js';
import { BROWSER_ACCEPT_ENCODING } from '../lib/transport.js';
import { slope, MIN_REQUESTS_FOR_GROWTH } from '../lib/memory.js';
import { pinUnavailable, withPinning } from '../lib/pin.js';
import { request } from 'undici';
import { echoOps, modeRatios } from './echo-ops.js';

const MiB = 2 ** 20;
const BODY_100K = realisticJson(102400, 7);

export const VARIANTS = [
  { size: 1024, concurrency: 50 },
  { size: 102400, concurrency: 10 },
].flatMap((p) =>
  ['off', 'realistic'].flatMap((compression) =>
    ['shared', 'pinned'].map((cores) => ({ ...p, compression, cores, id: `${p.size === 1024 ? '1k' : '100k'}-${compression}-${cores}` })),
  ),
);

/** Wire byte counter for the application requests of one mode. */
function wireCounter() {
  const c = { requests: 0, reqBytes: 0, resBytes: 0, encodings: {} };
  const onWire = (e) => {
    if (e.url.includes('/api/nen/')) return;
    c.requests++;
    c.reqBytes += e.reqBytes;
    c.resBytes += e.resBytes;
    const k = e.contentEncoding ?? 'identity';
    c.encodings[k] = (c.encodings[k] ?? 0) + 1;
  };
  const reset = () => Object.assign(c, { requests: 0, reqBytes: 0, resBytes: 0, encodings: {} });
  return { c, onWire, reset };
}

async function setupCompression(ctx, compression) {
  const enc = wireCounter();
  const plain = wireCounter();
  const realistic = compression === 'realistic';
  const client = await ctx.makeClient({ onWire: enc.onWire, ...(realistic ? { compress: true, acceptEncoding: BROWSER_ACCEPT_ENCODING } : {}) });
  await client.handshake();
  const plainFetch = ctx.plainFetchWith({ onWire: plain.onWire, ...(realistic ? { acceptEncoding: BROWSER_ACCEPT_ENCODING } : {}) });
  return { client, plainFetch, enc, plain };
}

function bytesOf(size, enc, plain) {
  const per = (w) => (w.c.requests ? Math.round(w.c.resBytes / w.c.requests) : null);
  const e = per(enc);
  const p = per(plain);
  return {
    plaintext: size,
    encryptedResponse: e,
    plainResponse: p,
    encryptedRequest: enc.c.requests ? Math.round(enc.c.reqBytes / enc.c.requests) : null,
    responseRatio: ratio(e, p),
    encryptedCompressionRatio: ratio(size, e),
    plainCompressionRatio: ratio(size, p),
    encodings: { encrypted: { ...enc.c.encodings }, plain: { ...plain.c.encodings } },
  };
}

/**
 * Seconds per mode of a variant: min(--duration, 5), and twice that for the pinned 1 KB / 100 KB
 * `off` variants, the headline ratios (issue 21): under `next start` a mark-compact costs the
 * server ~80 ms (pause and incremental steps, --trace-gc) every ~3,000 1 KB requests, so 5 s per mode
 * at ~1,500 req/s hold ~5, each charged to whichever mode's slice it lands in: the count difference
 * (sd ~2) swings a mode's CPU by ~±3 %, the run-to-run spread of these ratios. Twice the window
 * halves the variance of that lottery, for +20 s of the main job.
 */
export function variantSeconds(v, { durationSeconds, quick }) {
  if (quick) return 0.5;
  const base = Math.min(durationSeconds, 5);
  return v.cores === 'pinned' && v.compression === 'off' ? 2 * base : base;
}

export async function runVariants(ctx) {
  const { sliceSeconds } = ctx.options;
  const pids = ctx.serverCpu?.pids ?? [];
  const noPin = ctx.options.pin === false ? 'disabled (--no-pin)' : pinUnavailable({ pids, cores: ctx.cores });
  const setups = { off: await setupCompression(ctx, 'off'), realistic: await setupCompression(ctx, 'realistic') };
  const out = [];
  for (const v of VARIANTS) {
    if (v.cores === 'pinned' && noPin) {
      out.push({ ...v, skipped: true, note: `not run: ${noPin}`, encrypted: emptyMode(), plain: emptyMode(), ratio: {}, bytes: null });
      continue;
    }
    const s = setups[v.compression];
    const seconds = variantSeconds(v, ctx.options);
    const slice = Math.min(sliceSeconds, seconds);
    const body = v.size === 1024 ? ECHO_1K : BODY_100K;
    const ops = echoOps(ctx, s.client, body, { plainFetch: s.plainFetch });
    await ops.encrypted(); // warm the variant's client and route
    await ops.plain();
    s.enc.reset();
    s.plain.reset();
    ctx.progress?.detail(`variant ${v.id}`);
    const measure = () =>
      runInterleaved({ modes: ops, concurrency: v.concurrency, durationMs: seconds * 1000, sliceMs: slice * 1000, cores: ctx.cores, serverCpu: ctx.serverCpu });
    const r = v.cores === 'pinned' ? await withPinning({ pids }, measure) : await measure();
    const rec = {
      ...v,
      encrypted: r.encrypted,
      plain: r.plain,
      ratio: modeRatios(r),
      bytes: bytesOf(v.size, s.enc, s.plain),
      secondsPerMode: seconds,
    };
    out.push(rec);
    ctx.progress?.log(
      `  variant ${v.id} (c=${v.concurrency}): enc ${r.encrypted.rps} req/s | plain ${r.plain.rps} req/s | ratio ${rec.ratio.rps}` +
        (r.encrypted.server
          ? ` | server CPU ms/req ${r.encrypted.server.cpuMsPerRequest}/${r.plain.server?.cpuMsPerRequest} (${rec.ratio.serverCpuPerRequest})`
          : '') +
        ` | response bytes ${rec.bytes.encryptedResponse}/${rec.bytes.plainResponse} (${rec.bytes.responseRatio})`,
    );
  }
  return out;
}

/** The server's pin from GET /api/nen/keys (null when the target does not publish one). */
export async function serverPin(ctx) {
  const r = await request(ctx.url('/api/nen/keys'), { dispatcher: ctx.agent });
  if (r.statusCode !== 200) {
    await r.body.dump();
    return null;
  }
  const pin = (await r.body.json())?.keys?.[0]?.pin;
  return typeof pin === 'string' ? pin : null;
}

/** Handshakes (fresh pinned clients) vs the 1 KB plain echo, interleaved, shared and pinned cores. */
export async function runHandshakeVariants(ctx) {
  const { durationSeconds, sliceSeconds, quick } = ctx.options;
  const seconds = quick ? 0.5 : Math.min(durationSeconds, 5);
  const slice = Math.min(sliceSeconds, seconds);
  const pids = ctx.serverCpu?.pids ?? [];
  const noPin = ctx.options.pin === false ? 'disabled (--no-pin)' : pinUnavailable({ pids, cores: ctx.cores });
  const pin = await serverPin(ctx);
  const plainOps = echoOps(ctx, await ctx.makeClient(), ECHO_1K);
  const modes = {
    encrypted: async () => {
      const client = await ctx.makeClient(pin ? { serverKey: pin } : {});
      await client.handshake();
      if (!client.session?.id) throw Object.assign(new Error('handshake produced no session'), { code: 'MISMATCH' });
      ctx.countRequest?.();
    },
    plain: plainOps.plain,
  };
  await modes.encrypted();
  await modes.plain();
  const out = [];
  for (const cores of ['shared', 'pinned']) {
    const v = { id: `handshake-${cores}`, size: 1024, concurrency: 50, compression: 'off', cores, kind: 'handshake', pinned: pin !== null };
    if (cores === 'pinned' && noPin) {
      out.push({ ...v, skipped: true, note: `not run: ${noPin}`, encrypted: emptyMode(), plain: emptyMode(), ratio: {}, bytes: null });
      continue;
    }
    ctx.progress?.detail(`variant ${v.id}`);
    const measure = () =>
      runInterleaved({ modes, concurrency: v.concurrency, durationMs: seconds * 1000, sliceMs: slice * 1000, cores: ctx.cores, serverCpu: ctx.serverCpu });
    const r = cores === 'pinned' ? await withPinning({ pids }, measure) : await measure();
    // no per-handshake figure from a window with errors (the driver divides by completed + errors,
    // and an error answer, e.g. a 429 from the server's ceiling, is cheaper than a handshake)
    const hs = r.encrypted.errors ? null : r.encrypted.server?.cpuMsPerRequest;
    const pl = r.plain.errors ? null : r.plain.server?.cpuMsPerRequest;
    const busy = { encrypted: coresBusy(r.encrypted, ctx.cores), plain: coresBusy(r.plain, ctx.cores) };
    const rec = {
      ...v,
      encrypted: r.encrypted,
      plain: r.plain,
      ratio: { ...modeRatios(r), ...(hs === null || pl === null ? { serverCpuPerRequest: null } : {}) },
      serverCpuMsOverPlain: typeof hs === 'number' && typeof pl === 'number' ? round(hs - pl, 3) : null,
      coresBusy: busy,
      bytes: null,
      note: `encrypted = one ${pin ? 'pinned' : 'unpinned'} handshake per op; plain = 1 KB echo`,
      secondsPerMode: seconds,
    };
    out.push(rec);
    ctx.progress?.log(
      `  variant ${v.id} (c=${v.concurrency}): ${r.encrypted.rps} handshakes/s | plain ${r.plain.rps} req/s | ratio ${rec.ratio.rps}` +
        (typeof hs === 'number' ? ` | server CPU ms per handshake ${hs} vs per plain request ${pl ?? '–'} (+${rec.serverCpuMsOverPlain ?? '–'})` : '') +
        (r.encrypted.errors || r.plain.errors
          ? ` | errors ${r.encrypted.errors}/${r.plain.errors} (no CPU per op) ${JSON.stringify(r.encrypted.errorKinds)}`
          : '') +
        ` | cores busy, server / load generator: handshakes ${busy.encrypted.server ?? '–'} / ${busy.encrypted.generator ?? '–'}, plain ${busy.plain.server ?? '–'} / ${busy.plain.generator ?? '–'}`,
    );
  }
  return out;
}

/**
 * Cores' worth of CPU the server and this load generator each used while one mode ran (on
 * `pinned` each has one core: ~1 is a saturated core, i.e. the side that bounds the req/s).
 */
export function coresBusy(m, cores) {
  const of = (share) => (typeof share === 'number' ? round(share * cores, 2) : null);
  return { server: of(m.server?.cpuShareOfMachine), generator: of(m.client?.cpuShareOfMachine) };
}

function emptyMode() {
  return { requests: 0, errors: 0, errorKinds: {}, errorSamples: [], rps: null, latencyMs: { p50: null, p99: null }, client: {}, server: null };
}

/** Memory growth with only one mode running, for each mode in turn. */
export async function attributeMemory(ctx) {
  if (!ctx.sampler || ctx.sampler.available === false) return { windows: [], note: 'metrics route unavailable' };
  const seconds = ctx.options.quick ? 1 : Math.max(3, Math.min(ctx.options.durationSeconds, 10));
  const client = await ctx.makeClient();
  await client.handshake();
  const ops = echoOps(ctx, client, ECHO_1K);
  const windows = [];
  for (const mode of ['plain', 'encrypted']) {
    ctx.phase = `${mode}-only`;
    ctx.progress?.detail(`memory window ${mode}-only`);
    const tag = `load:${mode}-only`;
    await ctx.sampler.sampleOnce();
    const acc = createAccumulator(10_000);
    await runSlice({ op: ops[mode], concurrency: 10, durationMs: seconds * 1000, acc });
    await ctx.sampler.sampleOnce();
    ctx.phase = null;
    const s = ctx.sampler.samples.filter((x) => x.stage === tag && typeof x.rss === 'number');
    const covered = s.length ? s[s.length - 1].requests - s[0].requests : 0;
    const per1000 = (field) => {
      const pts = s.filter((x) => typeof x[field] === 'number').map((x) => [x.requests, x[field]]);
      // as lib/memory.js: a slope over a few samples or a few hundred requests is GC noise
      const k = pts.length >= 5 && covered >= MIN_REQUESTS_FOR_GROWTH ? slope(pts) : null;
      return k === null ? null : round((k * 1000) / 1024, 2);
    };
    const first = s[0];
    const last = s[s.length - 1];
    windows.push({
      mode,
      requests: acc.completed,
      errors: acc.errors,
      seconds,
      samples: s.length,
      rssStartMiB: first ? round(first.rss / MiB, 1) : null,
      rssEndMiB: last ? round(last.rss / MiB, 1) : null,
      heapStartMiB: first?.heapUsed ? round(first.heapUsed / MiB, 1) : null,
      heapEndMiB: last?.heapUsed ? round(last.heapUsed / MiB, 1) : null,
      rssGrowthKiBPer1000Requests: per1000('rss'),
      heapGrowthKiBPer1000Requests: per1000('heapUsed'),
    });
    ctx.progress?.log(
      `  memory ${mode}-only: ${acc.completed} requests, RSS ${windows.at(-1).rssStartMiB} → ${windows.at(-1).rssEndMiB} MiB, heap growth ${windows.at(-1).heapGrowthKiBPer1000Requests ?? '–'} KiB / 1000 req`,
    );
  }
  return {
    concurrency: 10,
    bodyBytes: ECHO_1K.length,
    windows,
    note: 'sampled at the window edges and every second; heap figures include garbage not yet collected',
  };
}
