/**
 * Runs one scenario (conformance/server/scenarios.mjs) through one driver: resets the scenario on
 * the fault server, translates each step into a DRIVER.md command, compares the answer with the
 * step's `expect`, then checks the handler runs counted server-side.
 *
 * Pitfalls: a stream's `partial` must be a prefix of the expected authentic plaintext (a client
 * may release less, never unauthenticated bytes); chunk boundaries are not compared (a client
 * may coalesce records), only their concatenation.
 */
const b64 = (s) => Buffer.from(s, 'utf8').toString('base64');
const text = (b) => Buffer.from(b ?? '', 'base64').toString('utf8');
const show = (s) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

/** The DRIVER.md command for a step, with pins resolved and the scenario's base. */
function command(step, ctx) {
  if (step.op === 'client') {
    return {
      op: 'client',
      name: step.name,
      base: ctx.base,
      sessionPath: ctx.sessionPath,
      pins: step.pins.map((p) => ctx.pins[p]),
      kem: step.kem ?? 'xwing',
      timeoutMs: step.timeoutMs ?? 10000,
      maxBodyBytes: step.maxBodyBytes ?? 4194304,
    };
  }
  if (step.op === 'fetch') {
    const headers = step.contentType ? { 'content-type': step.contentType } : {};
    const body = step.text !== undefined && step.method !== 'GET' && step.method !== 'HEAD' ? b64(step.text) : null;
    return { op: 'fetch', client: step.client, method: step.method, path: step.path, headers, body, stream: step.stream === true };
  }
  return { op: step.op, client: step.client };
}

/** Compares an answer with `expect`; returns null when it matches, else the reason. */
export function mismatch(expect, a) {
  if (expect.code) {
    if (a.ok) return `expected ${expect.code}, got success (status ${a.status ?? '-'})`;
    if (a.code !== expect.code) return `expected ${expect.code}, got ${a.code}: ${a.message ?? ''}`;
    if (expect.partial !== undefined && !expect.partial.startsWith(text(a.partial)))
      return `released ${show(text(a.partial))}, not a prefix of the authentic ${show(expect.partial)}`;
    return null;
  }
  if (!a.ok) return `expected success, got ${a.code}: ${a.message ?? ''}`;
  for (const k of ['keyId', 'kem', 'pinned'])
    if (k in expect && a[k] !== expect[k]) return `${k}: expected ${JSON.stringify(expect[k])}, got ${JSON.stringify(a[k])}`;
  if ('status' in expect && a.status !== expect.status) return `status: expected ${expect.status}, got ${a.status}`;
  if ('body' in expect && text(a.body) !== expect.body) return `body: expected ${show(expect.body)}, got ${show(text(a.body))}`;
  if (Array.isArray(a.chunks) && Buffer.concat(a.chunks.map((c) => Buffer.from(c, 'base64'))).toString('base64') !== (a.body ?? ''))
    return 'chunks do not concatenate to body';
  return null;
}

async function control(url, action, scenario) {
  const r = await fetch(`${url}/control/${action}?scenario=${scenario}`, { method: action === 'runs' ? 'GET' : 'POST' });
  if (!r.ok) throw new Error(`control ${action}: HTTP ${r.status}`);
  return r.json();
}

const describe = (step) =>
  step.op === 'fetch' ? `fetch ${step.method} ${step.path}${step.stream ? ' (stream)' : ''}` : step.op === 'control' ? `control ${step.action}` : step.op;

/**
 * Runs steps through a driver (ctx: base, sessionPath, pins, control(action)); resolves to null
 * when every step matched, else { ok: false, detail, restart }.
 */
export async function runSteps(steps, driver, ctx) {
  for (const [i, step] of steps.entries()) {
    if (step.op === 'sleep') {
      await new Promise((r) => setTimeout(r, step.ms));
      continue;
    }
    if (step.op === 'control') {
      await ctx.control(step.action);
      continue;
    }
    const a = await driver.send(command(step, ctx));
    const why = step.expect ? mismatch(step.expect, a) : a.ok ? null : `${a.code}: ${a.message ?? ''}`;
    if (why) return { ok: false, detail: `step ${i + 1} (${describe(step)}): ${why}`, restart: a.timedOut === true || a.code === 'DRIVER' };
  }
  return null;
}

/** Runs a scenario; resolves to { name, ok, detail?, skipped? }. */
export async function runScenario(sc, driver, ctx) {
  const missing = (sc.needs ?? []).filter((f) => !ctx.features.includes(f));
  if (missing.length) return { name: sc.name, ok: false, skipped: true, detail: `skipped: driver lacks ${missing.join(', ')}` };
  await control(ctx.url, 'reset', sc.name);
  const c = {
    ...ctx,
    base: `${ctx.url}/scenario/${sc.name}`,
    sessionPath: `/scenario/${sc.name}/api/nen`,
    control: (action) => control(ctx.url, action, sc.name),
  };
  const failed = await runSteps(sc.steps, driver, c);
  if (failed) return { name: sc.name, ...failed };
  const { runs, bodyBytesSent, requests } = await control(ctx.url, 'runs', sc.name);
  if (sc.requests !== undefined && requests !== sc.requests)
    return { name: sc.name, ok: false, detail: `the server received ${requests} requests, expected ${sc.requests}` };
  if (sc.runs !== undefined && runs !== sc.runs) return { name: sc.name, ok: false, detail: `handler ran ${runs} times server-side, expected ${sc.runs}` };
  if (sc.maxBodyBytesSent !== undefined && bodyBytesSent > sc.maxBodyBytesSent) {
    const detail = `the client read ${bodyBytesSent} bytes of the oversized answer (limit 1 MiB; at most ${sc.maxBodyBytesSent} may be in flight)`;
    return { name: sc.name, ok: false, detail };
  }
  return { name: sc.name, ok: true };
}
