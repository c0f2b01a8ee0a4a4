#!/usr/bin/env node
/**
 * Server-side Nen cost, measured in-process on the built packages (run `pnpm build` first):
 *
 *  1. server handshake compute: serverHandshake() (X-Wing or ML-KEM-768 encapsulation to the
 *     client's ephemeral key + decapsulation of the pinned static key + transcript/HKDF/HMAC),
 *     per backend (node and wasm interleaved batch by batch), plus a breakdown of the pinned X-Wing
 *     handshake into the two Wasm HPKE setups, our protocol code, and the whole handshake route;
 *  2. per-request protocol cost at 1 KB and 100 KB: AEAD open of the request + memory-store commit
 *     (replay window) + AEAD seal of the response, i.e. exactly what Nen adds per request;
 *  3. the whole `withNen` wrapper vs the same handler unwrapped, on real Request objects (header
 *     parsing, Request/Response rebuilding included), and the wire sizes.
 *
 * Usage: node bench/server-cost.mjs [--quick] [--json out.json] [--baseline-wasm DIR]
 *   --baseline-wasm DIR: also measure a second Wasm build (wasm-bindgen `--target web` output in
 *   DIR, e.g. nen-core built from an older commit) as backend "wasm-before", interleaved with the
 *   others, for before/after figures in one run.
 * Figures are medians of batches; the machine is noisy (±20 %): compare within one run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import os from 'node:os';
import {
  KEM_ID,
  SessionKeys,
  clientHandshakeStart,
  formatRequestHeader,
  loadBackend,
  openMessage,
  parseServerKeyPin,
  requestAad,
  responseAad,
  sealMessage,
  serverHandshake,
  toBase64Url,
} from '@nen/core';
import { createNen, memoryStore } from '@nen/server';

const quick = process.argv.includes('--quick');
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : undefined;
const now = () => performance.now();

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs fn(i) in batches (setup() before each batch, untimed); returns the median µs per call. */
async function measure(fn, { batches = quick ? 5 : 11, perBatch = 200, warmup = 50, setup } = {}) {
  if (warmup > 0) {
    await setup?.();
    for (let i = 0; i < warmup; i++) await fn(i);
  }
  const per = [];
  let k = warmup;
  for (let b = 0; b < batches; b++) {
    await setup?.();
    k = 0;
    const t0 = now();
    for (let i = 0; i < perBatch; i++) await fn(k++);
    per.push(((now() - t0) * 1000) / perBatch);
  }
  return median(per);
}

const results = {
  env: { node: process.version, cpu: os.cpus()[0]?.model, cores: os.cpus().length, platform: `${os.platform()} ${os.arch()}`, date: new Date().toISOString() },
  handshake: {},
  request: {},
  wrapper: {},
  wire: {},
};
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

// ---------------------------------------------------------------- 1. handshake
// The fast backends (node, wasm) are measured interleaved, batch by batch in alternating order:
// measured one after the other, whichever ran first looked up to 2x slower on this VM (JIT
// warm-up, load drift), which read as "node slower than wasm" although the node backend runs the
// very same Wasm KEM/HPKE code for the handshake.
const hsBackends = {};
for (const kind of ['node', 'wasm', 'noble']) {
  try {
    hsBackends[kind] = await loadBackend(kind);
  } catch (e) {
    console.log(`handshake ${kind}: unavailable (${e.message})`);
  }
}
const baselineDir = process.argv.includes('--baseline-wasm') ? process.argv[process.argv.indexOf('--baseline-wasm') + 1] : undefined;
if (baselineDir) {
  const glue = await import(pathToFileURL(join(baselineDir, 'nen_core.js')).href);
  glue.initSync({ module: readFileSync(join(baselineDir, 'nen_core_bg.wasm')) });
  const { createWasmBackend } = await import(new URL('../../core/dist/backend/wasm.js', import.meta.url).href);
  hsBackends['wasm-before'] = createWasmBackend(glue);
}
const fastKinds = Object.keys(hsBackends).filter((k) => k !== 'noble');
const hsParams = (keys) => ({ keys, sessionId: new Uint8Array(16), maxLifetime: 3600, idleTimeout: 900, now: Date.now() });

/** Median µs per call of fn(kind, i) for each kind (and `.best`: the best batch), batches interleaved in alternating order. */
function interleaved(kinds, fn, { batches = quick ? 5 : 11, perBatch = 50, warmup = 20 } = {}) {
  const per = Object.fromEntries(kinds.map((k) => [k, []]));
  for (const k of kinds) for (let i = 0; i < warmup; i++) fn(k, i);
  for (let b = 0; b < batches; b++) {
    for (const k of b % 2 ? [...kinds].reverse() : kinds) {
      const t0 = now();
      for (let i = 0; i < perBatch; i++) fn(k, i);
      per[k].push(((now() - t0) * 1000) / perBatch);
    }
  }
  const out = Object.fromEntries(kinds.map((k) => [k, median(per[k])]));
  // The best batch too: on this shared 2-core VM the medians swing 2-3x with other load, the
  // best batch tracks the quiet-machine cost (non-enumerable: callers iterate the medians).
  Object.defineProperty(out, 'best', { value: Object.fromEntries(kinds.map((k) => [k, Math.min(...per[k])])) });
  return out;
}

for (const [kemName, kem] of [
  ['xwing', KEM_ID.XWING],
  ['mlkem768', KEM_ID.MLKEM768],
]) {
  for (const pinned of [true, false]) {
    const cfg = {};
    for (const [kind, backend] of Object.entries(hsBackends)) {
      const kp = backend.generateKeyPair(kem);
      const sk = backend.createRecipientKey(kem, kp.privateKey);
      const pin = parseServerKeyPin(`k1:${toBase64Url(sk.publicKey)}`);
      const n = kind === 'noble' ? 30 : 200;
      const hellos = Array.from({ length: n }, () => clientHandshakeStart(backend, pinned ? { pin } : { kem }).hello);
      cfg[kind] = { backend, sk, pin, n, hellos, keys: new Map([['k1', sk]]) };
    }
    const serverUs = interleaved(fastKinds, (k, i) => {
      const c = cfg[k];
      serverHandshake(c.backend, c.hellos[i % c.n], hsParams(c.keys));
    });
    if (cfg.noble) {
      const c = cfg.noble;
      serverUs.noble = await measure((i) => serverHandshake(c.backend, c.hellos[i % c.n], hsParams(c.keys)), { perBatch: 10, warmup: 3 });
    }
    for (const [kind, c] of Object.entries(cfg)) {
      const { backend, pin, keys } = c;
      // Client side compute: ClientHello (keygen + encapsulation to the pin) and finish
      // (decapsulation + key schedule + confirm), timed separately from the server's work.
      const cn = kind === 'noble' ? 10 : 50;
      const startUs = await measure(() => clientHandshakeStart(backend, pinned ? { pin } : { kem }).dispose(), { perBatch: cn, warmup: 5 });
      let pairs = [];
      const finishUs = await measure((i) => pairs[i].c.finish(pairs[i].response), {
        perBatch: cn,
        warmup: 0,
        setup: () => {
          pairs = Array.from({ length: cn }, () => {
            const cl = clientHandshakeStart(backend, pinned ? { pin } : { kem });
            return { c: cl, response: serverHandshake(backend, cl.hello, hsParams(keys)).response };
          });
        },
      });
      const cus = startUs + finishUs;
      const key = `${kind}/${kemName}/${pinned ? 'pinned' : 'unpinned'}`;
      const best = serverUs.best?.[kind];
      results.handshake[key] = { serverUs: serverUs[kind], serverBestUs: best, clientUs: cus };
      console.log(
        `handshake ${key.padEnd(30)} server ${fmt(serverUs[kind]).padStart(6)} µs${best === undefined ? '' : ` (best batch ${fmt(best)})`}   client ${fmt(cus).padStart(6)} µs`,
      );
    }
    for (const c of Object.values(cfg)) c.sk.dispose();
  }
}

// Where the pinned X-Wing server handshake goes: the two HPKE setups (Wasm, X25519 + ML-KEM-768),
// the rest of serverHandshake (ClientHello parse, transcript SHA-256, HKDF, HMAC: ours), and what
// the handshake route adds on top (body read, session id, store create, session keys, Response).
if (fastKinds.length > 0) {
  const cfg = {};
  for (const kind of fastKinds) {
    const backend = hsBackends[kind];
    const seed = new Uint8Array(32).fill(9);
    const sk = backend.createRecipientKey(KEM_ID.XWING, seed);
    const pin = parseServerKeyPin(`k1:${toBase64Url(sk.publicKey)}`);
    const hellos = Array.from({ length: 200 }, () => clientHandshakeStart(backend, { pin }).hello);
    const info = new TextEncoder().encode('nen/1 static');
    const ctx = new TextEncoder().encode('x');
    const nen = createNen({
      backend,
      store: memoryStore({ shared: false, maxSessions: 100_000 }),
      serverKeys: `k1:${toBase64Url(seed)}`,
      logger: () => {},
      handshakeRateLimit: 0,
      handshakesPerSecond: 0,
    });
    cfg[kind] = { backend, sk, hellos, info, ctx, keys: new Map([['k1', sk]]), nen };
  }
  const encStatic = (h) => h.subarray(h.length - 1120);
  const pkEph = (h) => h.subarray(8, 8 + 1216);
  const total = interleaved(fastKinds, (k, i) => serverHandshake(cfg[k].backend, cfg[k].hellos[i % 200], hsParams(cfg[k].keys)));
  const setupS = interleaved(fastKinds, (k, i) => cfg[k].backend.setupBaseSExport(KEM_ID.XWING, pkEph(cfg[k].hellos[i % 200]), cfg[k].info, cfg[k].ctx, 32));
  const setupR = interleaved(fastKinds, (k, i) => cfg[k].sk.setupBaseRExport(encStatic(cfg[k].hellos[i % 200]), cfg[k].info, cfg[k].ctx, 32));
  const route = {};
  for (const k of fastKinds) {
    const c = cfg[k];
    let reqs = [];
    route[k] = await measure(
      async (i) => {
        const res = await c.nen.routes.POST(reqs[i]);
        if (res.status !== 200) throw new Error(`handshake route ${res.status}`);
        await res.arrayBuffer();
      },
      {
        perBatch: 50,
        warmup: 0,
        setup: () => {
          reqs = c.hellos
            .slice(0, 50)
            .map(
              (h) => new Request('http://127.0.0.1/api/nen/handshake', { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: h }),
            );
        },
      },
    );
  }
  for (const k of fastKinds) {
    const rest = total[k] - setupS[k] - setupR[k];
    const b = { total: total.best[k], s: setupS.best[k], r: setupR.best[k] };
    results.handshake[`${k}/xwing/pinned/breakdown`] = {
      totalUs: total[k],
      setupBaseSUs: setupS[k],
      staticSetupBaseRUs: setupR[k],
      protocolUs: rest,
      routeUs: route[k],
      best: { totalUs: b.total, setupBaseSUs: b.s, staticSetupBaseRUs: b.r, protocolUs: b.total - b.s - b.r },
    };
    console.log(
      `handshake ${k}/xwing/pinned breakdown: SetupBaseS ${fmt(setupS[k])} + static SetupBaseR ${fmt(setupR[k])} + protocol ${fmt(rest)} = ${fmt(total[k])} µs (best batches: ${fmt(b.s)} + ${fmt(b.r)} + ${fmt(b.total - b.s - b.r)} = ${fmt(b.total)} µs); whole handshake route (in-process Request → Response, memory store) ${fmt(route[k])} µs`,
    );
  }
  for (const c of Object.values(cfg)) {
    c.sk.dispose();
    await c.nen.close();
  }
}

// ---------------------------------------------------------------- 2. per-request protocol cost
for (const kind of ['node', 'wasm', 'noble']) {
  const backend = await loadBackend(kind).catch(() => undefined);
  if (!backend) continue;
  for (const size of [1024, 100 * 1024]) {
    const store = memoryStore({ shared: false });
    const secret = backend.randomBytes(32);
    const keys = new SessionKeys(backend, secret, 0);
    const sid = backend.randomBytes(16);
    const id = toBase64Url(sid);
    const t = Date.now();
    await store.create({ id, secret, meta: {}, epoch: 0, createdAt: t, expiresAt: t + 3_600_000, idleTimeoutMs: 3_600_000, lastSeenAt: t });
    const body = backend.randomBytes(size);
    const n = 256;
    const sealed = [];
    let seq = 1n;
    const mk = () => {
      const meta = { sessionId: sid, epoch: 0, seq: seq++, timestamp: Date.now(), flags: 0 };
      const aad = requestAad(meta, 'POST', '/api/echo', 'application/json');
      return { meta, aad, sealed: sealMessage(keys.c2s, keys.c2sIv, meta.seq, aad, body) };
    };
    const us = await measure(
      async (i) => {
        const r = sealed[i];
        const plain = openMessage(keys.c2s, keys.c2sIv, r.meta.seq, r.aad, r.sealed);
        const c = await store.commit(id, r.meta.seq, Date.now());
        if (!c.ok) throw new Error('commit failed');
        const raad = responseAad(sid, 0, r.meta.seq, 200, 0, 'application/json');
        sealMessage(keys.s2c, keys.s2cIv, r.meta.seq, raad, plain);
      },
      {
        perBatch: n,
        warmup: 0,
        batches: quick ? 5 : 11,
        setup: () => {
          sealed.length = 0;
          for (let j = 0; j < n; j++) sealed.push(mk());
        },
      },
    );
    const net = us;
    results.request[`${kind}/${size}`] = { us: net };
    console.log(`request ${kind.padEnd(6)} ${String(size).padStart(6)} B: open + commit + seal ${fmt(net).padStart(7)} µs`);
    keys.dispose();
    await store.close();
  }
}

// ---------------------------------------------------------------- 3. withNen wrapper vs plain
{
  const backend = await loadBackend('auto');
  const store = memoryStore({ shared: false });
  const nen = createNen({
    backend,
    store,
    serverKeys: `k1:${toBase64Url(new Uint8Array(32).fill(5))}`,
    logger: () => {},
    handshakeRateLimit: 0,
    handshakesPerSecond: 0,
  });
  const pin = (await nen.publicKeys())[0].pin;
  const c = clientHandshakeStart(backend, { pin: parseServerKeyPin(pin) });
  const hsRes = await nen.routes.POST(
    new Request('http://127.0.0.1/api/nen/handshake', { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: c.hello }),
  );
  const r = c.finish(new Uint8Array(await hsRes.arrayBuffer()));
  const keys = new SessionKeys(backend, r.secret, 0);
  const echo = async (_req, _ctx, body) => Response.json(body);
  const wrapped = nen.withNen(echo);
  const plain = async (req) => Response.json(JSON.parse(new TextDecoder().decode(new Uint8Array(await req.arrayBuffer()))));
  let seq = 1n;
  for (const size of [1024, 100 * 1024]) {
    const obj = { data: 'x'.repeat(size - 12) };
    const json = new TextEncoder().encode(JSON.stringify(obj));
    const n = size > 10_000 ? 64 : 256;
    const mkNen = () => {
      const meta = { sessionId: r.sessionId, epoch: 0, seq: seq++, timestamp: Date.now(), flags: 0 };
      const aad = requestAad(meta, 'POST', '/api/echo', 'application/json');
      const sealed = sealMessage(keys.c2s, keys.c2sIv, meta.seq, aad, json);
      return new Request('http://127.0.0.1/api/echo', {
        method: 'POST',
        headers: { nen: formatRequestHeader(meta), 'nen-type': 'application/json', 'content-type': 'application/nen' },
        body: sealed,
      });
    };
    const mkPlain = () => new Request('http://127.0.0.1/api/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });
    const bench = async (mk, handler) => {
      let reqs = [];
      return measure(
        async (i) => {
          const res = await handler(reqs[i], {});
          if (res.status !== 200) throw new Error(`status ${res.status} ${res.headers.get('nen-error')}`);
          await res.arrayBuffer();
        },
        {
          perBatch: n,
          warmup: 0,
          setup: () => {
            reqs = Array.from({ length: n }, mk);
          },
        },
      );
    };
    const usPlain = await bench(mkPlain, plain);
    const usNen = await bench(mkNen, wrapped);
    results.wrapper[size] = { plainUs: usPlain, nenUs: usNen, addedUs: usNen - usPlain };
    const wireReq = json.length + 16;
    results.wire[size] = {
      plaintext: json.length,
      body: wireReq,
      ratio: wireReq / json.length,
      nenHeaderBytes:
        formatRequestHeader({ sessionId: r.sessionId, epoch: 0, seq: 123456n, timestamp: Date.now(), flags: 0 }).length +
        'nen: '.length +
        'nen-type: application/json'.length +
        4,
    };
    console.log(
      `withNen ${String(size).padStart(6)} B: plain handler ${fmt(usPlain)} µs, withNen ${fmt(usNen)} µs (+${fmt(usNen - usPlain)} µs); wire body ${wireReq} B = ${(wireReq / json.length).toFixed(5)}× plaintext`,
    );
  }
  keys.dispose();
  await nen.close();
  await store.close();
}

if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 2));
console.log(`\n${results.env.cpu}, ${results.env.cores} cores, Node ${results.env.node}. Medians; noisy machine (±20 %).`);
