/**
 * Stage 3: payload sizes (1 KB, 10 KB, 100 KB, 500 KB; random bytes and realistic JSON). For each
 * case: the exact body bytes on the wire (request and response, counted below any decoding) for
 * the encrypted echo, for the encrypted echo with the client's `compress: true`, and what the
 * plain route actually sends when asked with `accept-encoding: gzip` (Next gzips compressible
 * types); p50/p99 of sequential requests in each mode, interleaved request by request.
 *
 * Pitfalls: ciphertext does not compress, so the fair comparison for JSON is against the plain
 * route's gzip bytes, not against the plaintext; every response is checked against the request
 * (the plain one after gunzip), a mismatch fails the stage.
 */
import { gunzipSync } from 'node:zlib';
import { summarize, ratio } from '../lib/stats.js';
import { realisticJson, randomPayload, bytesEqual } from '../lib/payloads.js';

export const SIZES = [1024, 10 * 1024, 100 * 1024, 500 * 1024];

function label(size) {
  return size >= 1024 ? `${size / 1024} KB` : `${size} B`;
}

function iterationsFor(size, quick) {
  const base = size <= 1024 ? 200 : size <= 10240 ? 150 : size <= 102400 ? 60 : 25;
  return quick ? Math.max(5, Math.round(base / 10)) : base;
}

async function makeWireClient(ctx, compress) {
  const wire = { last: null };
  const client = await ctx.makeClient({
    ...(compress ? { compress: true } : {}),
    onWire: (e) => {
      if (!e.url.includes('/api/nen/')) wire.last = e;
    },
  });
  await client.handshake();
  return { client, wire };
}

export async function run(ctx) {
  const quick = ctx.options.quick;
  const enc = await makeWireClient(ctx, false);
  const encC = await makeWireClient(ctx, true);
  const cases = [];
  let failure = null;
  for (const kind of ['json', 'random']) {
    for (const size of SIZES) {
      ctx.progress?.detail(`${kind} ${label(size)}`);
      const contentType = kind === 'json' ? 'application/json' : 'application/octet-stream';
      const bodyBytes = kind === 'json' ? new TextEncoder().encode(realisticJson(size, size)) : randomPayload(size);
      const headers = { 'content-type': contentType };
      const lat = { encrypted: [], encryptedCompressed: [], plain: [] };
      const wire = { encrypted: null, encryptedCompressed: null, plain: null };
      const n = iterationsFor(size, quick);
      const encryptedOnce = async (c, key) => {
        const s = performance.now();
        const res = await c.client.fetch('/api/echo', { method: 'POST', headers, body: bodyBytes });
        const got = new Uint8Array(await res.arrayBuffer());
        lat[key].push(performance.now() - s);
        ctx.countRequest();
        if (res.status !== 200 || !bytesEqual(got, bodyBytes))
          throw new Error(`payload ${kind} ${label(size)} ${key}: status ${res.status}, ${got.byteLength} bytes back, content differs`);
        const w = c.wire.last;
        wire[key] = w ? { requestWireBytes: w.reqBytes, responseWireBytes: w.resBytes, responseContentEncoding: w.resHeaders.get('content-encoding') } : null;
      };
      const plainOnce = async () => {
        const s = performance.now();
        const res = await ctx.plainFetch(ctx.url('/api/plain/echo'), { method: 'POST', headers: { ...headers, 'accept-encoding': 'gzip' }, body: bodyBytes });
        const raw = new Uint8Array(await res.arrayBuffer());
        const encoding = res.headers.get('content-encoding');
        const got = encoding === 'gzip' ? new Uint8Array(gunzipSync(raw)) : raw;
        lat.plain.push(performance.now() - s);
        ctx.countRequest();
        if (res.status !== 200 || !bytesEqual(got, bodyBytes)) throw new Error(`payload ${kind} ${label(size)} plain: status ${res.status}, content differs`);
        wire.plain = { requestWireBytes: bodyBytes.byteLength, responseWireBytesGzip: raw.byteLength, responseContentEncoding: encoding };
      };
      try {
        for (let i = 0; i < n; i++) {
          await encryptedOnce(enc, 'encrypted');
          await encryptedOnce(encC, 'encryptedCompressed');
          await plainOnce();
        }
      } catch (err) {
        failure = String(err?.message ?? err);
      }
      const c = {
        kind,
        contentType,
        size,
        label: label(size),
        plaintextBytes: size,
        iterations: n,
        encrypted: wire.encrypted && { ...wire.encrypted, latencyMs: summarize(lat.encrypted) },
        encryptedCompressed: wire.encryptedCompressed && { ...wire.encryptedCompressed, latencyMs: summarize(lat.encryptedCompressed) },
        plain: wire.plain && { ...wire.plain, latencyMs: summarize(lat.plain) },
      };
      c.ratios = {
        encryptedVsPlaintext: ratio(c.encrypted?.responseWireBytes, size, 4),
        encryptedRequestVsPlaintext: ratio(c.encrypted?.requestWireBytes, size, 4),
        encryptedVsPlainGzip: ratio(c.encrypted?.responseWireBytes, c.plain?.responseWireBytesGzip, 3),
        encryptedCompressedVsPlainGzip: ratio(c.encryptedCompressed?.responseWireBytes, c.plain?.responseWireBytesGzip, 3),
        p50EncryptedVsPlain: ratio(c.encrypted?.latencyMs.p50, c.plain?.latencyMs.p50),
        p99EncryptedVsPlain: ratio(c.encrypted?.latencyMs.p99, c.plain?.latencyMs.p99),
      };
      cases.push(c);
      ctx.progress?.log(
        `  payload ${kind} ${label(size)}: response wire enc ${c.encrypted?.responseWireBytes} B, enc+compress ${c.encryptedCompressed?.responseWireBytes} B, plain gzip ${c.plain?.responseWireBytesGzip} B; request wire enc ${c.encrypted?.requestWireBytes} B, enc+compress ${c.encryptedCompressed?.requestWireBytes} B; p50 enc/plain ${c.encrypted?.latencyMs.p50}/${c.plain?.latencyMs.p50} ms`,
      );
      if (failure) break;
    }
    if (failure) break;
  }
  return { ok: failure === null, failure, data: { route: 'POST /api/echo vs POST /api/plain/echo', cases } };
}
