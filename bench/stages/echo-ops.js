/**
 * The load stages' shared operations: `echoOps` (one encrypted and one plain ~1 KB echo request,
 * each response read and compared with what was sent) and `modeRatios` (encrypted / plain ratios
 * of one interleaved run). Used by load.js, load-variants.js, load-ohttp.js, saturation.js,
 * scenarios.js and soak.js; it imports none of them (it was load.js's, which made an import cycle
 * with the variant modules load.js calls).
 *
 * Pitfall: an op throws on a non-200 status or a body mismatch (codes HTTP / MISMATCH, which the
 * driver counts as error kinds) and counts the request only when it matched.
 */
import { ECHO_1K } from '../lib/payloads.js';
import { ratio } from '../lib/stats.js';

/** The encrypted (through `client`) and plain echo ops for `body`; each checks status and body. */
export function echoOps(ctx, client, body = ECHO_1K, { plainFetch = ctx.plainFetch } = {}) {
  const headers = { 'content-type': 'application/json' };
  const encrypted = async () => {
    const res = await client.fetch('/api/echo', { method: 'POST', headers, body });
    const text = await res.text();
    if (res.status !== 200) throw Object.assign(new Error(`encrypted echo: status ${res.status}`), { code: 'HTTP', status: res.status });
    if (text !== body) throw Object.assign(new Error('encrypted echo: body mismatch'), { code: 'MISMATCH' });
    ctx.countRequest();
  };
  const plainUrl = ctx.url('/api/plain/echo');
  const plain = async () => {
    const res = await plainFetch(plainUrl, { method: 'POST', headers, body });
    const text = await res.text();
    if (res.status !== 200) throw Object.assign(new Error(`plain echo: status ${res.status}`), { code: 'HTTP', status: res.status });
    if (text !== body) throw Object.assign(new Error('plain echo: body mismatch'), { code: 'MISMATCH' });
    ctx.countRequest();
  };
  return { encrypted, plain };
}

/** encrypted / plain ratios of one interleaved run (the load levels add the client CPU ratio). */
export function modeRatios(r) {
  return {
    rps: ratio(r.encrypted.rps, r.plain.rps),
    p50: ratio(r.encrypted.latencyMs.p50, r.plain.latencyMs.p50),
    p99: ratio(r.encrypted.latencyMs.p99, r.plain.latencyMs.p99),
    serverCpuPerRequest: ratio(r.encrypted.server?.cpuMsPerRequest, r.plain.server?.cpuMsPerRequest),
  };
}
