/**
 * OHTTP gateway key rotation (issue 23: "generated and rotated with the same `nen keygen` workflow,
 * with several configs live during a rotation"; docs/operations.md §4), over real HTTP on
 * 127.0.0.1: keys made by the real `nen keygen --ohttp` bin, a gateway (`nen.ohttpGateway`,
 * memory store) whose NEN_OHTTP_KEYS-style list moves through the runbook's steps, and
 * @nen/client in OHTTP mode pinned by the printed `sha256:` digests:
 *  - old only, then new + old (both live, both listed, the new one first): a request to either
 *    key runs; a client already holding the old config keeps using it without a refetch;
 *  - old retired: a client still holding it gets NEN_OHTTP_KEY_UNKNOWN, refetches the list once and
 *    re-sends to the new key (its handler runs once); a client pinned to the old digest alone gets
 *    NEN_OHTTP_KEY_MISMATCH after that one refetch; one given the old Key Config by value gets
 *    NEN_OHTTP_KEY_UNKNOWN with no fetch at all. Nothing runs for a refused request.
 *
 * Pitfall: the gateway is swapped per phase behind one server (the store and the handler are the
 * same), as a rolling restart with a new NEN_OHTTP_KEYS would do.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNenClient } from '@nen/client';
import { parseKeyConfigs } from '@nen/core/ohttp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../src/adapters/node-http.js';
import { createNen, memoryStore } from '../src/index.js';
import type { OhttpGateway } from '../src/ohttp/gateway.js';
import { closeServer, listenLoopback } from './http-harness.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '../bin/nen.js');
const PATH = '/.well-known/ohttp-gateway';

/** `nen keygen --ohttp --key-id <id>` as a user runs it: the entry, the public Key Config and its pin. */
function keygen(id: number): { entry: string; config: string; pin: string } {
  const r = spawnSync(process.execPath, [bin, 'keygen', '--ohttp', '--key-id', String(id)], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  const entry = /^NEN_OHTTP_KEYS=(.+)$/m.exec(r.stdout)?.[1];
  const config = /^# ([A-Za-z0-9_-]{100,})$/m.exec(r.stdout)?.[1];
  const pin = /^# (sha256:[A-Za-z0-9_-]{43})$/m.exec(r.stdout)?.[1];
  if (!entry || !config || !pin) throw new Error(`unexpected keygen output:\n${r.stdout}`);
  return { entry, config, pin };
}

const nen = createNen({ serverKeys: undefined, store: memoryStore({ shared: false }), logger: () => {} });
const runs: unknown[] = [];
const notes = nen.withNen(async (_req, _ctx, body) => {
  runs.push(body);
  return { ok: body };
});
const gateways = new Map<string, OhttpGateway>();
let current: OhttpGateway | undefined;
/** What the gateway received: key ids of POSTed encapsulations and the number of GETs. */
const wire = { posts: [] as number[], gets: 0 };
const server = createServer(
  toNodeHandler(async (r) => {
    if (r.method === 'GET') wire.gets++;
    else wire.posts.push(new Uint8Array(await r.clone().arrayBuffer())[0] as number);
    return (current as OhttpGateway).fetch(r);
  }),
);
let url = '';
let k1: ReturnType<typeof keygen>;
let k2: ReturnType<typeof keygen>;

/** The gateway with NEN_OHTTP_KEYS = `entries` (the first current), as after a rolling restart. */
function use(...entries: string[]): void {
  const text = entries.join(',');
  let g = gateways.get(text);
  if (!g) {
    g = nen.ohttpGateway({ keys: text, routes: { '/api/notes': { POST: notes } } });
    gateways.set(text, g);
  }
  current = g;
}

const client = (keyConfig: string | string[]) =>
  createNenClient({ mode: 'ohttp', baseUrl: 'https://app.example', relay: `${url}${PATH}`, keyConfig, keyConfigUrl: `${url}${PATH}` });

async function post(c: ReturnType<typeof client>, n: number): Promise<unknown> {
  const res = await c.fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
  expect(res.status).toBe(200);
  return res.json();
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (e: { code?: string }) => e.code,
  );

beforeAll(async () => {
  k1 = keygen(1);
  k2 = keygen(2);
  url = await listenLoopback(server);
});
afterAll(async () => {
  await closeServer(server);
  await nen.close();
});

describe('OHTTP key rotation (nen keygen --ohttp, several configs live)', () => {
  it('both keys live: listed new first, each runs; a client holding the old config keeps it without a refetch', async () => {
    use(k1.entry);
    const early = client([k2.pin, k1.pin]); // shipped with both pins before the gateway has k2
    expect(await post(early, 1)).toEqual({ ok: { n: 1 } });
    expect(wire).toEqual({ posts: [1], gets: 1 });

    use(k2.entry, k1.entry); // step 2: the new key first, the old one still live
    const res = await fetch(`${url}${PATH}`);
    expect(res.headers.get('content-type')).toBe('application/ohttp-keys');
    expect(parseKeyConfigs(new Uint8Array(await res.arrayBuffer())).map((c) => c.keyId)).toEqual([2, 1]);
    const late = client([k2.pin, k1.pin]);
    expect(await post(late, 2)).toEqual({ ok: { n: 2 } });
    expect(await post(early, 3)).toEqual({ ok: { n: 3 } });
    expect(await post(client(k1.config), 4)).toEqual({ ok: { n: 4 } }); // the old config by value
    expect(wire.posts).toEqual([1, 2, 1, 1]);
    expect(wire.gets).toBe(3); // the early client did not refetch
    expect(runs).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });

  it('old key retired: a client holding it refetches once and re-sends to the new key; the others are refused, nothing runs', async () => {
    use(k1.entry);
    const holder = client([k2.pin, k1.pin]);
    expect(await post(holder, 5)).toEqual({ ok: { n: 5 } });
    const oldOnly = client([k1.pin]);
    expect(await post(oldOnly, 6)).toEqual({ ok: { n: 6 } });
    const byValue = client(k1.config);
    runs.length = 0;
    wire.posts.length = 0;
    wire.gets = 0;

    use(k2.entry); // step 4
    expect(await post(holder, 7)).toEqual({ ok: { n: 7 } });
    expect(wire).toEqual({ posts: [1, 2], gets: 1 });
    expect(await codeOf(post(oldOnly, 8))).toBe('NEN_OHTTP_KEY_MISMATCH');
    expect(wire).toEqual({ posts: [1, 2, 1], gets: 2 });
    expect(await codeOf(post(byValue, 9))).toBe('NEN_OHTTP_KEY_UNKNOWN');
    expect(wire).toEqual({ posts: [1, 2, 1, 1], gets: 2 });
    expect(runs).toEqual([{ n: 7 }]);
  });
});
