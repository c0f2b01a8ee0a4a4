/**
 * Stage ai-stream: an AI-shaped stream (the AI SDK's `streamText(...).toUIMessageStreamResponse()`
 * on its mock model: many small SSE chunks, one per token) encrypted (POST /api/chat, through
 * `withNenStream`: one sealed record per chunk) vs plain (POST /api/chat/plain, the same handler
 * without Nen), interleaved request by request on one warm session.
 *
 * Figures per mode: time to first record (first body bytes the application can read: a decrypted
 * record, or the first plain chunk), time to first token (the first `text-delta` event decoded),
 * tokens/s while streaming (tokens / (end - first token)) and whole-stream duration. Targets
 * (issue 13): TTFT p50 ≤ plain + 2 ms, tokens/s p50 ≥ 0.9 × plain; reported, not asserted (the
 * stage fails only on a wrong stream: missing, extra or reordered tokens).
 *
 * Pitfalls: the model emits with no delay (`delay=0`), so the figures are Nen's per-record cost
 * plus the AI SDK's own; the handshake happens before the first timed request.
 */
import { summarize, ratio, round } from '../lib/stats.js';

const BODY = JSON.stringify({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'bench: stream tokens' }] }] });
const HEADERS = { 'content-type': 'application/json' };

/** Reads one UI message stream, timing it; checks every token arrived once, in order. */
async function measure(res, t0, tokens) {
  if (res.status !== 200 || !res.body) throw new Error(`status ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let firstRecord = null;
  let firstToken = null;
  let text = '';
  let seen = 0;
  let buffer = '';
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    const now = performance.now();
    firstRecord ??= now - t0;
    buffer += decoder.decode(r.value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) !== -1) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (!event.startsWith('data: {')) continue;
      const chunk = JSON.parse(event.slice(6));
      if (chunk.type === 'text-delta') {
        firstToken ??= now - t0;
        text += chunk.delta;
        seen++;
      } else if (chunk.type === 'error') {
        throw new Error(`error chunk: ${chunk.errorText}`);
      }
    }
  }
  const total = performance.now() - t0;
  const expected = Array.from({ length: tokens }, (_, i) => `t${i} `).join('');
  if (seen !== tokens || text !== expected) throw new Error(`expected ${tokens} tokens in order, got ${seen}`);
  return { firstRecord, firstToken, total, tokensPerSecond: (tokens / Math.max(total - firstToken, 0.001)) * 1000 };
}

function figures(samples) {
  return {
    ttfrMs: summarize(samples.map((s) => s.firstRecord)),
    ttftMs: summarize(samples.map((s) => s.firstToken)),
    totalMs: summarize(samples.map((s) => s.total)),
    tokensPerSecond: summarize(samples.map((s) => s.tokensPerSecond)),
  };
}

export async function run(ctx) {
  const quick = ctx.options.quick;
  const tokens = quick ? 200 : 1000;
  const iterations = quick ? 6 : 40;
  const warmup = 2;
  const path = `/api/chat?delay=0&tokens=${tokens}`;
  const client = await ctx.makeClient();
  await client.handshake();
  const enc = [];
  const plain = [];
  let failure = null;
  try {
    for (let i = 0; i < warmup + iterations; i++) {
      ctx.progress?.detail(`${i + 1}/${warmup + iterations}`);
      let t0 = performance.now();
      const e = await measure(await client.fetch(path, { method: 'POST', headers: HEADERS, body: BODY }), t0, tokens);
      ctx.countRequest();
      t0 = performance.now();
      const p = await measure(
        await ctx.plainFetch(ctx.url(`/api/chat/plain?delay=0&tokens=${tokens}`), { method: 'POST', headers: HEADERS, body: BODY }),
        t0,
        tokens,
      );
      ctx.countRequest();
      if (i >= warmup) {
        enc.push(e);
        plain.push(p);
      }
    }
  } catch (err) {
    failure = `ai-stream: ${err?.message ?? err}`;
  }
  const encrypted = figures(enc);
  const plainF = figures(plain);
  const ttftDeltaMs = enc.length ? round(encrypted.ttftMs.p50 - plainF.ttftMs.p50) : null;
  const rateRatio = enc.length ? ratio(encrypted.tokensPerSecond.p50, plainF.tokensPerSecond.p50) : null;
  const targets = {
    ttftP50DeltaMs: ttftDeltaMs,
    ttftWithin2ms: ttftDeltaMs === null ? null : ttftDeltaMs <= 2,
    tokensPerSecondRatio: rateRatio,
    tokensPerSecondAtLeast09: rateRatio === null ? null : rateRatio >= 0.9,
  };
  ctx.progress?.log(
    `  ai-stream ${tokens} tokens: TTFT p50 enc ${encrypted.ttftMs.p50} ms vs plain ${plainF.ttftMs.p50} ms (Δ ${ttftDeltaMs} ms, target ≤ 2); tokens/s p50 enc ${round(encrypted.tokensPerSecond.p50, 0)} vs plain ${round(plainF.tokensPerSecond.p50, 0)} (×${rateRatio}, target ≥ 0.9); first record p50 enc ${encrypted.ttfrMs.p50} / plain ${plainF.ttfrMs.p50} ms`,
  );
  return {
    ok: failure === null,
    failure,
    data: {
      route: 'POST /api/chat vs POST /api/chat/plain (AI SDK UI message stream, mock model, delay 0)',
      tokens,
      iterations: enc.length,
      encrypted,
      plain: plainF,
      targets,
    },
  };
}
