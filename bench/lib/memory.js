/**
 * Background sampler of the server's memory from the bench-only route `GET /api/bench/metrics`
 * (plain JSON { rss, heapUsed, external, sessions, counters, storeKind }; 404 unless the server
 * runs with NEN_BENCH_METRICS=1). One sample per target about every second, tagged with the
 * bench's running request count, so growth can be expressed per 1,000 requests.
 *
 * Pitfalls: the timer is unref'd and a sample is skipped while the previous one is in flight (a
 * slow server must not pile up requests); samples are capped; RSS includes allocator slack, so
 * growth is fitted by least squares after a warm-up, not taken as last − first.
 */
import { request } from 'undici';
import { round } from './stats.js';

const MAX_SAMPLES = 20_000;
export const MIN_REQUESTS_FOR_GROWTH = 2000;

export async function fetchMetrics(base, dispatcher) {
  const res = await request(`${base}/api/bench/metrics`, { dispatcher, headersTimeout: 5000, bodyTimeout: 5000 });
  if (res.statusCode !== 200) {
    await res.body.dump();
    return { ok: false, status: res.statusCode };
  }
  return { ok: true, status: 200, metrics: await res.body.json() };
}

/** Least-squares slope of y over x (null for fewer than 2 distinct x). */
export function slope(points) {
  const n = points.length;
  if (n < 2) return null;
  let sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0;
  for (const [x, y] of points) {
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const den = n * sxx - sx * sx;
  if (den === 0) return null;
  return (n * sxy - sx * sy) / den;
}

export function createMemorySampler({ targets, dispatcher, requestCount, stageName = () => null, intervalMs = 1000 }) {
  const samples = [];
  const t0 = Date.now();
  let inFlight = false;
  let available = null;
  const sampleOnce = async () => {
    if (inFlight || samples.length >= MAX_SAMPLES) return;
    inFlight = true;
    try {
      for (const base of targets) {
        try {
          const r = await fetchMetrics(base, dispatcher);
          if (!r.ok) {
            if (available === null) available = false;
            continue;
          }
          available = true;
          const m = r.metrics;
          samples.push({
            t: round((Date.now() - t0) / 1000, 2),
            target: base,
            stage: stageName(),
            requests: requestCount(),
            rss: m.rss ?? null,
            heapUsed: m.heapUsed ?? null,
            external: m.external ?? null,
            sessions: m.sessions ?? null,
          });
        } catch {
          /* a missed sample is not an error of the system under test */
        }
      }
    } finally {
      inFlight = false;
    }
  };
  const timer = setInterval(sampleOnce, intervalMs);
  timer.unref();
  return {
    sampleOnce,
    get available() {
      return available;
    },
    stop() {
      clearInterval(timer);
    },
    samples,
    summary() {
      return summarizeMemory(samples, targets);
    },
  };
}

const MiB = 2 ** 20;

/**
 * Per-target summary: first/last/max RSS and heap, growth per 1,000 requests after warm-up, for
 * the whole run and for each stage (the load stage is the "many requests on live sessions" case;
 * the handshake scenarios add sessions on purpose, which is growth by design until they expire).
 */
export function summarizeMemory(samples, targets) {
  const out = summarizeSeries(samples, targets);
  const stages = [...new Set(samples.map((x) => x.stage).filter(Boolean))];
  for (const base of targets) {
    if (!out[base] || !out[base].samples) continue;
    out[base].byStage = {};
    for (const st of stages)
      out[base].byStage[st] = summarizeSeries(
        samples.filter((x) => x.stage === st),
        [base],
      )[base];
  }
  return out;
}

function summarizeSeries(samples, targets) {
  const perTarget = {};
  for (const base of targets) {
    const s = samples.filter((x) => x.target === base && typeof x.rss === 'number');
    if (s.length === 0) {
      perTarget[base] = { samples: 0 };
      continue;
    }
    const warm = s.slice(Math.floor(s.length * 0.2));
    const covered = warm.length ? warm[warm.length - 1].requests - warm[0].requests : 0;
    // a slope over a few hundred requests is allocator noise, not growth
    const enough = covered >= MIN_REQUESTS_FOR_GROWTH && warm.length >= 5;
    const rssSlope = slope(warm.map((x) => [x.requests, x.rss]));
    const heapSlope = slope(warm.filter((x) => typeof x.heapUsed === 'number').map((x) => [x.requests, x.heapUsed]));
    perTarget[base] = {
      samples: s.length,
      rssFirstMiB: round(s[0].rss / MiB, 1),
      rssLastMiB: round(s[s.length - 1].rss / MiB, 1),
      rssMaxMiB: round(Math.max(...s.map((x) => x.rss)) / MiB, 1),
      heapUsedLastMiB: typeof s[s.length - 1].heapUsed === 'number' ? round(s[s.length - 1].heapUsed / MiB, 1) : null,
      requestsCovered: s[s.length - 1].requests - s[0].requests,
      rssGrowthKiBPer1000Requests: !enough || rssSlope === null ? null : round((rssSlope * 1000) / 1024, 2),
      heapGrowthKiBPer1000Requests: !enough || heapSlope === null ? null : round((heapSlope * 1000) / 1024, 2),
      sessionsLast: s[s.length - 1].sessions,
      sessionsMax: Math.max(...s.map((x) => (typeof x.sessions === 'number' ? x.sessions : 0))),
    };
  }
  return perTarget;
}
