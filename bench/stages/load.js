/**
 * Stage 2: load levels. At each concurrency level, closed-loop workers POST the same ~1 KB JSON
 * body to the encrypted echo (`POST /api/echo`, through the real Nen client: every request sealed,
 * every response opened and compared) and to the unencrypted echo (`POST /api/plain/echo`, same
 * handler code, same transport, response read and compared), in alternating short slices so
 * both modes see the same machine state. Reports req/s, p50/p90/p99/max, errors, client CPU share
 * and the ratios encrypted/plain.
 *
 * Then the variants of stages/load-variants.js (1 KB / 100 KB × compression off / realistic ×
 * shared / pinned cores), the memory attribution windows (plain-only, encrypted-only), and
 * OHTTP vs plain on the pinned server (stages/load-ohttp.js).
 *
 * Pitfall: one Nen session is shared by all workers (as a browser tab would share it); the
 * session's replay window must accept out-of-order arrivals of up to `concurrency` requests.
 */
import autocannon from 'autocannon';
import { runInterleaved } from '../lib/driver.js';
import { ratio } from '../lib/stats.js';
import { ECHO_1K } from '../lib/payloads.js';
import { echoOps, modeRatios } from './echo-ops.js';
import { runVariants, runHandshakeVariants, attributeMemory } from './load-variants.js';
import { runOhttpVariants } from './load-ohttp.js';

const MAX_ERROR_RATE = 0.005;

/** Why a variant fails the stage (too many errors in a mode), or null. */
function variantFailure(v) {
  if (v.skipped) return null;
  for (const mode of ['encrypted', 'plain']) {
    const m = v[mode];
    const total = m.requests + m.errors;
    if (total === 0 || m.errors / total > MAX_ERROR_RATE)
      return `load variant ${v.id}: ${mode}: ${m.errors} errors of ${total} requests (${JSON.stringify(m.errorKinds)}; ${m.errorSamples[0] ?? ''})`;
  }
  return null;
}

export async function run(ctx) {
  const { levels, durationSeconds, sliceSeconds } = ctx.options;
  const client = await ctx.makeClient();
  await client.handshake();
  const ops = echoOps(ctx, client);
  // warm-up: JIT, connections, Next route compilation
  const warm = Math.min(200, 20 * Math.max(...levels));
  for (let i = 0; i < Math.min(warm, 100); i++) {
    await ops.encrypted();
    await ops.plain();
  }
  const results = [];
  let failure = null;
  for (const concurrency of levels) {
    ctx.progress?.detail(`concurrency ${concurrency}`);
    const r = await runInterleaved({
      modes: ops,
      concurrency,
      durationMs: durationSeconds * 1000,
      sliceMs: sliceSeconds * 1000,
      cores: ctx.cores,
      serverCpu: ctx.serverCpu,
      onSlice: (mode) => ctx.progress?.detail(`concurrency ${concurrency} · ${mode}`),
    });
    const level = {
      concurrency,
      encrypted: r.encrypted,
      plain: r.plain,
      ratio: { ...modeRatios(r), clientCpuPerRequest: ratio(r.encrypted.client.cpuMsPerRequest, r.plain.client.cpuMsPerRequest) },
    };
    results.push(level);
    ctx.progress?.log(
      `  load c=${concurrency}: encrypted ${r.encrypted.rps} req/s p99 ${r.encrypted.latencyMs.p99} ms | plain ${r.plain.rps} req/s p99 ${r.plain.latencyMs.p99} ms | ratio ${level.ratio.rps}` +
        (r.encrypted.server ? ` | server CPU ms/req ${r.encrypted.server.cpuMsPerRequest}/${r.plain.server.cpuMsPerRequest}` : '') +
        (r.encrypted.errors || r.plain.errors ? ` | errors ${r.encrypted.errors}/${r.plain.errors}` : ''),
    );
    for (const mode of ['encrypted', 'plain']) {
      const m = r[mode];
      const total = m.requests + m.errors;
      if (total === 0 || m.errors / total > MAX_ERROR_RATE) {
        failure ??= `load: ${mode} at concurrency ${concurrency}: ${m.errors} errors of ${total} requests (${JSON.stringify(m.errorKinds)}; ${m.errorSamples[0] ?? ''})`;
      }
    }
  }
  // issue 11: 1 KB and 100 KB, compression off and realistic, shared and pinned cores; memory by mode
  const variants = await runVariants(ctx).catch((e) => {
    failure ??= `load variants: ${e?.stack ?? e}`;
    return [];
  });
  for (const v of variants) failure ??= variantFailure(v);
  const memoryAttribution = await attributeMemory(ctx).catch((e) => ({ error: String(e?.message ?? e), windows: [] }));
  // after the memory windows: the handshake variants leave thousands of unconfirmed sessions behind
  const handshakeVariants = await runHandshakeVariants(ctx).catch((e) => {
    failure ??= `load handshake variants: ${e?.stack ?? e}`;
    return [];
  });
  for (const v of handshakeVariants) {
    variants.push(v);
    failure ??= variantFailure(v);
  }
  // issue 23: OHTTP to the demo's own gateway vs plain, on the pinned server
  const ohttpVariants = await runOhttpVariants(ctx).catch((e) => {
    failure ??= `load ohttp variant: ${e?.stack ?? e}`;
    return [];
  });
  for (const v of ohttpVariants) {
    variants.push(v);
    failure ??= variantFailure(v);
  }
  const crossCheck = await autocannonCrossCheck(ctx, levels, durationSeconds).catch((e) => ({ error: String(e?.message ?? e) }));
  if (crossCheck && !crossCheck.error) {
    crossCheck.driverPlainRps = results.find((l) => l.concurrency === crossCheck.connections)?.plain.rps ?? null;
    ctx.progress?.log(
      `  autocannon cross-check, plain route c=${crossCheck.connections}: ${crossCheck.rps} req/s p99 ${crossCheck.p99Ms} ms (bench driver: ${crossCheck.driverPlainRps} req/s)`,
    );
  }
  return {
    ok: failure === null,
    failure,
    data: {
      autocannonCrossCheck: crossCheck,
      route: { encrypted: 'POST /api/echo', plain: 'POST /api/plain/echo' },
      bodyBytes: ECHO_1K.length,
      contentType: 'application/json',
      durationSecondsPerMode: durationSeconds,
      sliceSeconds,
      sessions: 1,
      maxErrorRate: MAX_ERROR_RATE,
      levels: results,
      variants,
      memoryAttribution,
    },
  };
}

/**
 * The plain route once more with autocannon (which cannot encrypt, and does not read bodies the
 * way the client does): an independent check that the bench's own driver is not the bottleneck.
 */
async function autocannonCrossCheck(ctx, levels, durationSeconds) {
  const c = levels.includes(50) ? 50 : Math.max(...levels);
  const duration = Math.max(1, Math.min(durationSeconds, 10));
  ctx.progress?.detail(`autocannon plain c=${c}`);
  const result = await autocannon({
    url: ctx.url('/api/plain/echo'),
    connections: c,
    duration,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: ECHO_1K,
  });
  const total = result.requests?.total ?? 0;
  for (let i = 0; i < Math.min(total, 10_000_000); i++) ctx.countRequest();
  return {
    tool: 'autocannon 8.0.0',
    connections: c,
    durationSeconds: duration,
    rps: result.requests?.average ?? null,
    p50Ms: result.latency?.p50 ?? null,
    p99Ms: result.latency?.p99 ?? null,
    non2xx: result.non2xx ?? null,
    errors: result.errors ?? null,
    driverPlainRps: null,
  };
}
