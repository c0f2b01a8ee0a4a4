/**
 * Command-line and environment options of run-all.js. Flags win over environment variables.
 *   --levels 1,10,25,50,100,200   (BENCH_LEVELS)    concurrency levels of the load stage
 *   --duration 10                 (BENCH_DURATION)  seconds per mode per level (interleaved slices)
 *   --quick                       (BENCH_QUICK=1)   whole run under a minute: a CI smoke test
 *   --only regression,load,...    (BENCH_ONLY)      run only these stages (in the fixed order)
 *   --out DIR                     (BENCH_OUT)       results root (default bench/results)
 *   --slice 1                     (BENCH_SLICE)     seconds per interleaved slice
 *   --soak 100000                 (BENCH_SOAK)      add the soak stage with this many requests
 *   --keep-going                  (BENCH_KEEP_GOING=1) run the later stages even after one failed
 *                                 (the run still exits 1; for collecting figures while a bug is open)
 * Unknown flags are an error, so a typo never silently runs the full bench.
 */
export const STAGES = ['regression', 'load', 'payload', 'scenarios', 'soak'];
/** Stages of a default run; `soak` (100k requests) runs only when asked for. */
export const DEFAULT_STAGES = ['regression', 'load', 'payload', 'scenarios'];

export function parseOptions(argv = process.argv.slice(2), env = process.env) {
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`bench: unexpected argument ${a}`);
    const [k, inline] = a.slice(2).split('=', 2);
    if (k === 'quick' || k === 'help' || k === 'keep-going') {
      flags[k] = true;
      continue;
    }
    if (!['levels', 'duration', 'only', 'out', 'slice', 'target', 'soak'].includes(k)) throw new Error(`bench: unknown option --${k}`);
    const v = inline ?? argv[++i];
    if (v === undefined) throw new Error(`bench: --${k} needs a value`);
    flags[k] = v;
  }
  const quick = Boolean(flags.quick || env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true');
  const levelsRaw = flags.levels ?? env.BENCH_LEVELS;
  const levels = levelsRaw
    ? levelsRaw.split(',').map((x) => {
        const n = Number(x.trim());
        if (!Number.isInteger(n) || n < 1 || n > 2000) throw new Error(`bench: bad level ${x}`);
        return n;
      })
    : quick
      ? [1, 10, 50]
      : [1, 10, 25, 50, 100, 200];
  const durationRaw = flags.duration ?? env.BENCH_DURATION;
  const duration = durationRaw !== undefined ? Number(durationRaw) : quick ? 1 : 10;
  if (!(duration > 0 && duration <= 3600)) throw new Error(`bench: bad duration ${durationRaw}`);
  const sliceRaw = flags.slice ?? env.BENCH_SLICE;
  const slice = sliceRaw !== undefined ? Number(sliceRaw) : quick ? 0.5 : 1;
  if (!(slice > 0 && slice <= duration)) throw new Error(`bench: bad slice ${sliceRaw} (0 < slice <= duration)`);
  const onlyRaw = flags.only ?? env.BENCH_ONLY;
  const soakRaw = flags.soak ?? env.BENCH_SOAK;
  const soakRequests = soakRaw !== undefined ? Number(soakRaw) : quick ? 2000 : 100_000;
  if (!Number.isInteger(soakRequests) || soakRequests < 100 || soakRequests > 10_000_000) throw new Error(`bench: bad soak request count ${soakRaw}`);
  const only = onlyRaw ? onlyRaw.split(',').map((s) => s.trim()).filter(Boolean) : [...DEFAULT_STAGES, ...(soakRaw !== undefined ? ['soak'] : [])];
  for (const s of only) if (!STAGES.includes(s)) throw new Error(`bench: unknown stage ${s} (stages: ${STAGES.join(', ')})`);
  return {
    help: Boolean(flags.help),
    keepGoing: Boolean(flags['keep-going'] || env.BENCH_KEEP_GOING === '1'),
    quick,
    levels,
    durationSeconds: duration,
    sliceSeconds: slice,
    stages: STAGES.filter((s) => only.includes(s)),
    soakRequests,
    out: flags.out ?? env.BENCH_OUT ?? null,
    target: flags.target ?? env.TARGET_URL ?? null,
  };
}

export const HELP = `Usage: TARGET_URL=http://127.0.0.1:3000[,http://127.0.0.1:3001] node bench/run-all.js [options]
  --levels 1,10,25,50,100,200  concurrency levels (load stage)
  --duration 10                seconds per mode per level
  --slice 1                    seconds per interleaved encrypted/plain slice
  --quick                      whole run under a minute (CI smoke test)
  --only regression,load,payload,scenarios[,soak]
  --soak 100000                add the soak stage (N requests on 10 live sessions; memory must stay flat)
  --keep-going                 run later stages even after a failed one (still exits 1)
  --out DIR                    results root (default bench/results)
The target must be the Nen demo app (apps/demo) or an app with the same routes; start it with
NEN_BENCH_METRICS=1 for memory figures and a high NEN_HANDSHAKE_RATE for the handshake scenarios.`;
