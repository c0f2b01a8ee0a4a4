/**
 * The AI stream through the browser path (part of the cold-browser stage): in Chromium, on one
 * warm session (handshake done first), the AI SDK UI message stream of N tokens (`/api/chat`,
 * pace=turn: one token per event-loop turn, as a provider's arrive) read through the client's
 * `stream()` (one record opened per chunk) vs the same handler in plain (`/api/chat/plain`, the
 * body read directly), interleaved, once with the default backend (@noble) and once with
 * `backend: 'wasm'`. Per mode: time to first token (from the request) and tokens/s from the first
 * token to the last, medians; targets (issue 21, as in ai-stream.json): tokens/s >= 0.95x plain,
 * first token <= plain + 2 ms. No CPU throttling, no added latency (as the ai-stream stage).
 *
 * Also the whole-stream ratio (plain time from request to last token / encrypted), which does not
 * reward a later first token.
 *
 * Pitfalls: a browser always sends Accept-Encoding, so Next gzips the plain event stream (zlib
 * batches tokens: a later first token, then bursts that inflate tokens/s from the first token);
 * the sealed stream is not compressed. performance.now() in a page without cross-origin isolation
 * is coarsened (0.1 ms). Every token is checked (count and order).
 */

/** Page module source: defines globalThis.runStream(cfg) → per-iteration figures. */
export const STREAM_ENTRY = `
import { createNenClient } from '@nen/client';
const BODY = JSON.stringify({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'bench: stream tokens' }] }] });
const HEADERS = { 'content-type': 'application/json' };
async function measure(chunks, t0) {
  const decoder = new TextDecoder();
  let buffer = '', seen = 0, first = null, last = null, text = '', reads = 0;
  for await (const value of chunks) {
    const now = performance.now();
    reads++;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\\n\\n')) !== -1) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (!event.startsWith('data: {')) continue;
      const chunk = JSON.parse(event.slice(6));
      if (chunk.type === 'text-delta') { first ??= now; last = now; text += chunk.delta; seen++; }
    }
  }
  return { ttft: first - t0, total: last - t0, tokensPerSecond: seen > 1 ? ((seen - 1) * 1000) / (last - first) : null, tokens: seen, text, reads };
}
async function* bodyChunks(res) {
  const reader = res.body.getReader();
  for (;;) { const r = await reader.read(); if (r.done) return; yield r.value; }
}
globalThis.runStream = async (cfg) => {
  const client = createNenClient({ serverKey: cfg.pin, backend: cfg.backend });
  await client.handshake();
  const q = 'delay=0&pace=turn&tokens=' + cfg.tokens;
  const out = { plain: [], nen: [] };
  let expected = null;
  for (let i = 0; i < cfg.iterations + 1; i++) {
    for (const mode of i % 2 ? ['nen', 'plain'] : ['plain', 'nen']) {
      const t0 = performance.now();
      const r = mode === 'plain'
        ? await measure(bodyChunks(await fetch('/api/chat/plain?' + q, { method: 'POST', headers: HEADERS, body: BODY })), t0)
        : await measure(client.stream('/api/chat?' + q, { method: 'POST', headers: HEADERS, body: BODY }), t0);
      expected ??= r.text;
      if (r.tokens !== cfg.tokens || r.text !== expected) throw new Error(mode + ': ' + r.tokens + ' tokens, text ' + (r.text === expected ? 'ok' : 'differs'));
      if (i > 0) out[mode].push({ ttft: r.ttft, total: r.total, tokensPerSecond: r.tokensPerSecond, reads: r.reads }); // iteration 0 warms up
    }
  }
  return out;
};
`;

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return s.length ? s[(s.length - 1) >> 1] : null;
};
const r2 = (x) => (x === null ? null : Math.round(x * 100) / 100);

/** Rejects when `p` has not settled within `ms` (the bench must stop by itself). */
function withTimeout(p, ms, what) {
  let timer;
  const t = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** Runs the streams in `page` (already at the stream page) for each backend; returns the figures. */
export async function measureStreams(page, { pin, tokens, iterations, backends = ['noble', 'wasm'] }) {
  const out = {};
  for (const backend of backends) {
    const raw = await withTimeout(
      page.evaluate((cfg) => globalThis.runStream(cfg), { pin, tokens, iterations, backend }),
      60_000,
      `browser stream (${backend})`,
    );
    const m = (mode, k) => median(raw[mode].map((x) => x[k]));
    const plainTotal = m('plain', 'total');
    const nenTotal = m('nen', 'total');
    const plainTps = m('plain', 'tokensPerSecond');
    const nenTps = m('nen', 'tokensPerSecond');
    out[backend] = {
      tokens,
      iterations,
      // reads: chunks the page received (the plain stream arrives gzipped, so in fewer, larger chunks)
      plain: { ttftMs: r2(m('plain', 'ttft')), totalMs: r2(plainTotal), tokensPerSecond: r2(plainTps), reads: m('plain', 'reads') },
      nen: { ttftMs: r2(m('nen', 'ttft')), totalMs: r2(nenTotal), tokensPerSecond: r2(nenTps), reads: m('nen', 'reads') },
      tokensPerSecondRatio: plainTps && nenTps ? r2(nenTps / plainTps) : null,
      /** plain whole-stream time / encrypted (request to last token): no mode gains from a later first token */
      wholeStreamRatio: plainTotal && nenTotal ? r2(plainTotal / nenTotal) : null,
      ttftOverPlainMs: r2(m('nen', 'ttft') - m('plain', 'ttft')),
    };
  }
  return out;
}
