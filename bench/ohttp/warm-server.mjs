#!/usr/bin/env node
/**
 * `node bench/ohttp/warm-server.mjs '<json>'` with `{ direct, pin, keyConfig, floorX25519KeyConfig?, n }`: warms the OHTTP
 * bench server (./server.mjs) from a process of its own before ../stages/ohttp.js takes its cold
 * first requests, so that those figures are a new client's first request to a running server (as
 * a deployed gateway is), not the first ~20 requests a fresh server process ever runs. Every mode
 * the stage times gets the same treatment over keep-alive: `n` plain echoes, `n` OHTTP requests
 * (each a fresh encapsulation, so the replay claim is exercised too), `n` floor requests (OHTTP's
 * cryptography alone, ./floor-client.mjs; and `n` X25519 ones when given), `n / 4` session-mode first
 * requests (a fresh client each: handshake + request) and `n` requests on one session.
 * A fresh @nen/server gateway process costs ~2x per request until V8 has optimised its JS path
 * (~1,000 requests on Node 20, ~300 on Node 24: bench/README.md, OHTTP tenth pass), while the
 * plain echo's few lines are hot after a handful; warming all alike removes that asymmetry.
 *
 * Pitfalls: a separate process on purpose: warming from the stage's own process would also
 * optimise the client code whose cold cost the stage measures. Bounded: fixed counts, a 10 s
 * deadline per request, concurrency 4; exits non-zero on a mismatch or an error, printing why.
 */
import { createNenClient } from '@nen/client';
import { Agent } from 'undici';
import { floorFetch } from './floor-client.mjs';

const { direct, pin, keyConfig, floorX25519KeyConfig, n } = JSON.parse(process.argv[2] ?? '{}');
const BODY = JSON.stringify({ data: 'x'.repeat(1000) });
const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY };
const agent = new Agent({ connections: 4 });
const f = (u, init = {}) => fetch(u, { ...init, dispatcher: agent, signal: AbortSignal.timeout(10_000) });

async function check(res, mode) {
  const text = await res.text();
  if (text !== BODY) throw new Error(`warm-server: ${mode} echo mismatch (status ${res.status})`);
}

/** `count` calls of `one`, four at a time. */
async function times(count, one) {
  let i = 0;
  const loop = async () => {
    while (i < count) {
      i++;
      await one();
    }
  };
  await Promise.all([loop(), loop(), loop(), loop()]);
}

const ohttp = createNenClient({ mode: 'ohttp', relay: `${direct}/.well-known/ohttp-gateway`, keyConfig, baseUrl: direct, fetch: f });
const session = createNenClient({ serverKey: pin, baseUrl: direct, fetch: f });
try {
  await times(n, async () => check(await f(`${direct}/plain/echo`, post), 'plain'));
  await times(n, async () => check(await ohttp.fetch('/api/echo', post), 'ohttp'));
  await times(n, async () => check(new Response(await floorFetch(f, `${direct}/floor/ohttp`, keyConfig, BODY)), 'floor'));
  if (floorX25519KeyConfig)
    await times(n, async () => check(new Response(await floorFetch(f, `${direct}/floor/ohttp-x25519`, floorX25519KeyConfig, BODY)), 'floor-x25519'));
  await times(Math.ceil(n / 4), async () =>
    check(await createNenClient({ serverKey: pin, baseUrl: direct, fetch: f }).fetch('/api/echo', post), 'session first'),
  );
  await times(n, async () => check(await session.fetch('/api/echo', post), 'session'));
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
} finally {
  await agent.close();
}
