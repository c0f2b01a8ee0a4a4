/**
 * Command-line and environment options of run-all.js, parsed with `node:util` parseArgs (strict:
 * unknown flags and stray positionals are errors, so a typo never silently runs the full bench).
 * Flags win over environment variables.
 *   --levels 1,10,25,50,100,200   (BENCH_LEVELS)    concurrency levels of the load stage
 *   --duration 10                 (BENCH_DURATION)  seconds per mode per level (interleaved slices)
 *   --quick                       (BENCH_QUICK=1)   whole run under a minute: a CI smoke test
 *   --only regression,load,...    (BENCH_ONLY)      run only these stages (in the fixed order)
 *   --out DIR                     (BENCH_OUT)       results root (default bench/results)
 *   --slice 1                     (BENCH_SLICE)     seconds per interleaved slice
 *   --soak 100000                 (BENCH_SOAK)      add the soak stage with this many requests
 *   --keep-going                  (BENCH_KEEP_GOING=1) run the later stages even after one failed
 *   --kem xwing|mlkem768          (BENCH_KEM)       KEM of the bench's clients (default xwing)
 *   --budget-p99 100              (BENCH_BUDGET_P99) p99 budget (ms) of the saturation search
 *   --ramp 2,4,8,16,32,64,128     (BENCH_RAMP)      concurrency ramp of the saturation search
 *   --window 2                    (BENCH_WINDOW)    seconds per mode per ramp step
 *   --payloads 1024,102400        (BENCH_PAYLOADS)  body sizes of the saturation search
 *   --sticky                      (BENCH_STICKY=1)  each client keeps to one instance (session
 *                                                   affinity; needed for the memory store with >1 instance)
 *   --cell k=v,k=v                (BENCH_CELL)      grid cell description (set by scripts/main.sh --grid)
 *   --redis host:port,..          (BENCH_REDIS)     Redis nodes to read INFO from (ops and bytes per request)
 *   --no-pin                      (BENCH_PIN=0)     skip the pinned-core load variants
 *   --baseline FILE               (BENCH_BASELINE)  compare with a saved summary.json; exit 1 past budget
 *   --budgets FILE                (BENCH_BUDGETS)   budgets (default bench/budgets.json)
 *   --history / --no-history      (BENCH_HISTORY)   append the one-line run summary to <out>/history/
 *                                                   (default: on for full runs; off for --quick and for
 *                                                   partial runs, whose --only leaves out a default stage)
 */
import { parseArgs } from 'node:util';

export const STAGES = ['regression', 'load', 'payload', 'scenarios', 'cold-browser', 'ohttp', 'saturation', 'soak', 'ai-stream', 'flood'];
/** Stages of a default run; `soak` (100k requests) and `saturation` run only when asked for. */
export const DEFAULT_STAGES = ['regression', 'load', 'payload', 'scenarios', 'cold-browser', 'ohttp'];
export const KEMS = ['xwing', 'mlkem768'];

const SPEC = {
  levels: { type: 'string' },
  duration: { type: 'string' },
  only: { type: 'string' },
  out: { type: 'string' },
  slice: { type: 'string' },
  target: { type: 'string' },
  soak: { type: 'string' },
  kem: { type: 'string' },
  'budget-p99': { type: 'string' },
  ramp: { type: 'string' },
  window: { type: 'string' },
  payloads: { type: 'string' },
  cell: { type: 'string' },
  redis: { type: 'string' },
  baseline: { type: 'string' },
  budgets: { type: 'string' },
  quick: { type: 'boolean' },
  help: { type: 'boolean' },
  'keep-going': { type: 'boolean' },
  flood: { type: 'boolean' },
  sticky: { type: 'boolean' },
  'no-pin': { type: 'boolean' },
  history: { type: 'boolean' },
  'no-history': { type: 'boolean' },
};

function parseFlags(argv) {
  try {
    return parseArgs({ args: argv, options: SPEC, strict: true, allowPositionals: false }).values;
  } catch (e) {
    if (e?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new Error(`bench: unknown option (${e.message.split('.')[0]})`);
    if (e?.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new Error(`bench: unexpected argument (${e.message.split('.')[0]})`);
    if (e?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new Error(`bench: ${e.message}`);
    throw e;
  }
}

/** "1,2,3" → positive integers in [min, max], or the fallback when absent. */
export function intList(raw, { what, min = 1, max = 2000, fallback }) {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const out = String(raw)
    .split(',')
    .map((x) => {
      const n = Number(x.trim());
      if (!Number.isInteger(n) || n < min || n > max) throw new Error(`bench: bad ${what} ${x}`);
      return n;
    });
  if (out.length === 0) throw new Error(`bench: empty ${what} list`);
  return out;
}

function num(raw, fallback, what, ok) {
  const v = raw !== undefined ? Number(raw) : fallback;
  if (!ok(v)) throw new Error(`bench: bad ${what} ${raw}`);
  return v;
}

/** "instances=2,kem=xwing,store=redis" → { instances: '2', kem: 'xwing', store: 'redis' } */
export function parseCell(raw) {
  if (!raw) return null;
  const out = {};
  for (const part of String(raw).split(',')) {
    const [k, v] = part.split('=');
    if (!k || v === undefined || !/^[a-z][a-zA-Z0-9-]*$/.test(k.trim())) throw new Error(`bench: bad --cell part ${part}`);
    out[k.trim()] = v.trim();
  }
  return out;
}

const truthy = (v) => v === '1' || v === 'true';

export function parseOptions(argv = process.argv.slice(2), env = process.env) {
  const flags = parseFlags(argv);
  const quick = Boolean(flags.quick || truthy(env.BENCH_QUICK));
  const levels = intList(flags.levels ?? env.BENCH_LEVELS, {
    what: 'level',
    fallback: quick ? [1, 10, 50] : [1, 10, 25, 50, 100, 200],
  });
  const durationRaw = flags.duration ?? env.BENCH_DURATION;
  const duration = num(durationRaw, quick ? 1 : 10, 'duration', (v) => v > 0 && v <= 3600);
  const sliceRaw = flags.slice ?? env.BENCH_SLICE;
  const slice = num(sliceRaw, quick ? 0.5 : 1, 'slice (0 < slice <= duration)', (v) => v > 0 && v <= duration);
  const soakRaw = flags.soak ?? env.BENCH_SOAK;
  const soakRequests = num(soakRaw, quick ? 2000 : 100_000, 'soak request count', (v) => Number.isInteger(v) && v >= 100 && v <= 10_000_000);
  const onlyRaw = flags.only ?? env.BENCH_ONLY;
  const only = onlyRaw
    ? onlyRaw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [...DEFAULT_STAGES, ...(soakRaw !== undefined ? ['soak'] : []), ...(flags.flood || truthy(env.BENCH_FLOOD) ? ['flood'] : [])];
  for (const s of only) if (!STAGES.includes(s)) throw new Error(`bench: unknown stage ${s} (stages: ${STAGES.join(', ')})`);
  const kem = flags.kem ?? env.BENCH_KEM ?? 'xwing';
  if (!KEMS.includes(kem)) throw new Error(`bench: bad kem ${kem} (${KEMS.join(' | ')})`);
  const budgetP99Ms = num(flags['budget-p99'] ?? env.BENCH_BUDGET_P99, 100, 'p99 budget', (v) => v > 0 && v <= 60_000);
  const ramp = intList(flags.ramp ?? env.BENCH_RAMP, {
    what: 'ramp step',
    fallback: quick ? [2, 8, 32] : [2, 4, 8, 16, 32, 64, 128],
  });
  const windowSeconds = num(flags.window ?? env.BENCH_WINDOW, quick ? 0.5 : 2, 'window', (v) => v > 0 && v <= 600);
  const payloads = intList(flags.payloads ?? env.BENCH_PAYLOADS, {
    what: 'payload size',
    min: 64,
    max: 16 * 2 ** 20,
    fallback: [1024, 102400],
  });
  const redisRaw = flags.redis ?? env.BENCH_REDIS;
  const redis = redisRaw
    ? redisRaw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
  for (const r of redis) if (!/^[\w.-]+:\d+$/.test(r)) throw new Error(`bench: bad --redis node ${r} (host:port)`);
  // A partial run (--only without every default stage) is not a line of the history, which keeps
  // one line per full run (the main job's); --history still records it, as kind 'partial'.
  const partial = DEFAULT_STAGES.some((s) => !only.includes(s));
  const historyDefault = !quick && !partial;
  const history = flags['no-history'] ? false : flags.history ? true : env.BENCH_HISTORY !== undefined ? truthy(env.BENCH_HISTORY) : historyDefault;
  return {
    help: Boolean(flags.help),
    keepGoing: Boolean(flags['keep-going'] || truthy(env.BENCH_KEEP_GOING)),
    quick,
    partial,
    levels,
    durationSeconds: duration,
    sliceSeconds: slice,
    stages: STAGES.filter((s) => only.includes(s)),
    soakRequests,
    kem,
    budgetP99Ms,
    ramp: [...new Set(ramp)].sort((a, b) => a - b),
    windowSeconds,
    payloads,
    sticky: Boolean(flags.sticky || truthy(env.BENCH_STICKY)),
    cell: parseCell(flags.cell ?? env.BENCH_CELL),
    redis,
    pin: !(flags['no-pin'] || env.BENCH_PIN === '0'),
    baseline: flags.baseline ?? env.BENCH_BASELINE ?? null,
    budgets: flags.budgets ?? env.BENCH_BUDGETS ?? null,
    history,
    out: flags.out ?? env.BENCH_OUT ?? null,
    target: flags.target ?? env.TARGET_URL ?? null,
  };
}

export const HELP = `Usage: TARGET_URL=http://127.0.0.1:3000[,http://127.0.0.1:3001] node bench/run-all.js [options]
  --levels 1,10,25,50,100,200  concurrency levels (load stage)
  --duration 10                seconds per mode per level
  --slice 1                    seconds per interleaved encrypted/plain slice
  --quick                      whole run under a minute (CI smoke test)
  --only regression,load,payload,scenarios,cold-browser,ohttp[,saturation][,soak][,ai-stream]
                               (ai-stream: AI SDK stream, TTFT and tokens/s, encrypted vs plain;
                               ohttp: Oblivious HTTP cold first request, throughput, server CPU)
  --soak 100000                add the soak stage (N requests on 10 live sessions; memory must stay flat)
  --flood                      add the flood stage: 10,000 unused handshakes, store keys/bytes at the end and 60 s later (back to baseline)
  --keep-going                 run later stages even after a failed one (still exits 1)
  --out DIR                    results root (default bench/results)
  --kem xwing|mlkem768         KEM the bench's clients ask for (the server must hold such a key)
  --budget-p99 100             saturation search: p99 budget in ms (the knee is the last step inside it)
  --ramp 2,4,8,16,32,64,128    saturation search: concurrency steps
  --window 2                   saturation search: seconds per mode per step
  --payloads 1024,102400       saturation search: body sizes
  --sticky                     each client keeps to one instance (memory store with several instances)
  --redis host:port[,..]       Redis nodes behind the targets: Redis ops and bytes per request/session
  --no-pin                     skip the pinned-core load variants (server on core 0, bench on core 1)
  --baseline FILE              compare with an earlier summary.json; exit 1 when past bench/budgets.json
  --budgets FILE               budgets file (default bench/budgets.json)
  --history | --no-history     append a one-line summary to <out>/history/ (default: full runs
                               only; not --quick, not an --only without every default stage)
The target must be the Nen demo app (apps/demo) or an app with the same routes; start it with
NEN_BENCH_METRICS=1 for memory figures and a high NEN_HANDSHAKE_RATE for the handshake scenarios.
The grid (instances x KEM x store x payload) is run by \`bash scripts/main.sh --grid\`.`;
