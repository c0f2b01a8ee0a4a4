/**
 * Closed-loop load driver: N workers, each issuing its next request as soon as the previous one
 * finished (the client-side view of a fixed-concurrency load test, like autocannon's `-c`), for a
 * fixed wall time. `runInterleaved` alternates short slices of several modes (encrypted / plain) at
 * the same concurrency so that machine drift (thermal, noisy neighbours, GC) hits all modes alike.
 *
 * Every operation is an async function that performs one full request, reads and checks the whole
 * response, and throws on any mismatch: an error is counted, never silently ignored.
 *
 * Pitfalls: closed-loop measurement suffers coordinated omission (a stalled server stalls the
 * workers, so latencies under overload are optimistic; throughput is still right); the load
 * generator shares the CPU with the server on this machine, so its own CPU share is reported
 * (process.cpuUsage) next to every figure. Samples are capped (`maxSamples`) to bound memory.
 */
import { summarize, round } from './stats.js';

const MAX_SAMPLES_DEFAULT = 2_000_000;

function errorKey(err) {
  if (err && typeof err === 'object') {
    const code = err.code ?? err.name ?? 'Error';
    const status = err.status !== undefined ? ` ${err.status}` : '';
    return `${code}${status}`;
  }
  return String(err);
}

/** Mutable accumulator shared across slices of one mode. */
export function createAccumulator(maxSamples = MAX_SAMPLES_DEFAULT) {
  return {
    latencies: [],
    completed: 0,
    errors: 0,
    errorKinds: {},
    errorSamples: [],
    busyMs: 0,
    cpuUserUs: 0,
    cpuSystemUs: 0,
    serverCpuMs: null,
    /** extra cumulative counters read at slice edges (e.g. Redis commands): name -> delta sum */
    counters: {},
    maxSamples,
  };
}

/**
 * Run one closed-loop slice.
 * @param {object} o
 * @param {(worker: number, i: number) => Promise<unknown>} o.op
 * @param {number} o.concurrency
 * @param {number} [o.durationMs]  wall time for the slice (workers start no request after it)
 * @param {number} [o.requests]    alternatively a total request budget (whichever comes first)
 * @param {ReturnType<typeof createAccumulator>} [o.acc]
 * @param {() => void} [o.onRequest] called after every request (progress, global counters)
 */
export async function runSlice({ op, concurrency, durationMs = Infinity, requests = Infinity, acc = createAccumulator(), onRequest }) {
  if (!(concurrency >= 1)) throw new RangeError('bench: concurrency must be >= 1');
  if (durationMs === Infinity && requests === Infinity) throw new RangeError('bench: give durationMs or requests');
  const t0 = performance.now();
  const deadline = t0 + durationMs;
  const cpu0 = process.cpuUsage();
  let issued = 0;
  let i = 0;
  const worker = async (w) => {
    while (issued < requests && performance.now() < deadline) {
      issued++;
      const n = i++;
      const s = performance.now();
      try {
        await op(w, n);
        const d = performance.now() - s;
        if (acc.latencies.length < acc.maxSamples) acc.latencies.push(d);
        acc.completed++;
      } catch (err) {
        acc.errors++;
        const k = errorKey(err);
        acc.errorKinds[k] = (acc.errorKinds[k] ?? 0) + 1;
        if (acc.errorSamples.length < 5) acc.errorSamples.push(String(err?.message ?? err).slice(0, 300));
      }
      onRequest?.();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  acc.busyMs += elapsed;
  acc.cpuUserUs += cpu.user;
  acc.cpuSystemUs += cpu.system;
  return acc;
}

/** Turn an accumulator into the result record written to JSON. */
export function finish(acc, { cores = 1 } = {}) {
  const seconds = acc.busyMs / 1000;
  const cpuMs = (acc.cpuUserUs + acc.cpuSystemUs) / 1000;
  return {
    requests: acc.completed,
    errors: acc.errors,
    errorKinds: acc.errorKinds,
    errorSamples: acc.errorSamples,
    seconds: round(seconds),
    rps: seconds > 0 ? round(acc.completed / seconds, 1) : null,
    latencyMs: summarize(acc.latencies),
    client: {
      cpuMs: round(cpuMs, 1),
      cpuMsPerRequest: acc.completed ? round(cpuMs / (acc.completed + acc.errors), 4) : null,
      /** share of the whole machine (all cores) the load generator used while this mode ran */
      cpuShareOfMachine: seconds > 0 ? round(cpuMs / 1000 / seconds / cores, 3) : null,
    },
    server:
      acc.serverCpuMs === null
        ? null
        : {
            cpuMs: round(acc.serverCpuMs, 0),
            cpuMsPerRequest: acc.completed ? round(acc.serverCpuMs / (acc.completed + acc.errors), 4) : null,
            cpuShareOfMachine: seconds > 0 ? round(acc.serverCpuMs / 1000 / seconds / cores, 3) : null,
          },
    ...(Object.keys(acc.counters).length
      ? {
          counters: Object.fromEntries(
            Object.entries(acc.counters).map(([k, v]) => [
              k,
              {
                total: round(v, 1),
                perRequest: acc.completed + acc.errors ? round(v / (acc.completed + acc.errors), 4) : null,
              },
            ]),
          ),
        }
      : {}),
  };
}

/**
 * Alternate slices of several modes at one concurrency until each mode had `durationMs` in total.
 * @param {object} o
 * @param {Record<string, (w: number, i: number) => Promise<unknown>>} o.modes
 * @param {number} o.concurrency
 * @param {number} o.durationMs total per mode
 * @param {number} [o.sliceMs]
 * @param {(mode: string) => void} [o.onSlice]
 * @param {() => void} [o.onRequest]
 * @param {(() => number) | null} [o.serverCpu] cumulative server CPU ms (lib/servercpu.js), read at slice edges
 * @param {Record<string, () => Promise<{ value: number, since: (prev: any) => number } | null>>} [o.counters]
 *        extra counters read at slice edges; each returns a snapshot whose `since(prev)` is the delta
 */
export async function runInterleaved({ modes, concurrency, durationMs, sliceMs = 1000, cores = 1, onSlice, onRequest, serverCpu = null, counters = {} }) {
  const names = Object.keys(modes);
  const accs = Object.fromEntries(names.map((n) => [n, createAccumulator()]));
  // An even number of rounds when modes alternate: the order is reversed every other round, so with
  // an even count each mode's mean slice position is the same (a drift over the window cancels) and
  // each leads as many rounds as it trails. An odd count (the load variants' 5 s of 1 s slices:
  // e p | p e | e p | p e | e p) gives the first mode one lead more than the others.
  let slices = Math.max(1, Math.round(durationMs / sliceMs));
  if (names.length > 1 && slices > 1 && slices % 2 === 1) slices++;
  const per = durationMs / slices;
  for (let s = 0; s < slices; s++) {
    // alternate the order every round so neither mode always runs first
    const order = s % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      onSlice?.(name);
      const snaps = {};
      for (const [k, read] of Object.entries(counters)) snaps[k] = await read().catch(() => null);
      const before = serverCpu ? serverCpu() : 0;
      await runSlice({ op: modes[name], concurrency, durationMs: per, acc: accs[name], onRequest });
      if (serverCpu) accs[name].serverCpuMs = (accs[name].serverCpuMs ?? 0) + (serverCpu() - before);
      for (const [k, read] of Object.entries(counters)) {
        const after = await read().catch(() => null);
        if (snaps[k] && after) accs[name].counters[k] = (accs[name].counters[k] ?? 0) + after.since(snaps[k]);
      }
    }
  }
  return Object.fromEntries(names.map((n) => [n, finish(accs[n], { cores })]));
}
