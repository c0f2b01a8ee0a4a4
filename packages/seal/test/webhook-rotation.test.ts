/**
 * Key rotation of a sealed-webhook receiver, end to end over real HTTP (node:http on 127.0.0.1,
 * fetch from the sender), with keys from the real `nen keygen`: the receiver is configured as the
 * README shows it, `identity: process.env.NEN_SERVER_KEYS`, and redeployed at each step.
 *
 *  1. NEN_SERVER_KEYS=old; the sender seals to the old pin.
 *  2. NEN_SERVER_KEYS=old,new (and the JSON form); a delivery sealed to the old key before the
 *     switch still opens; the sender moves to the new pin.
 *  3. NEN_SERVER_KEYS=new; the sender's deliveries keep opening; one sealed to the dropped key is
 *     refused (400 NEN_SEAL_WEBHOOK_BODY), so the drop really happened.
 * No delivery is lost: the handler ran exactly once for every delivery sent, in order.
 * Regression: a NEN_SERVER_KEYS value with two keys made withNenWebhook throw NEN_SEAL_KEY.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { toNodeHandler } from '@nen/server/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryReplayStore, sealWebhook, withNenWebhook } from '../src/index.js';

const NEN = fileURLToPath(new URL('../../server/bin/nen.js', import.meta.url));
const secret = `whsec_${randomBytes(32).toString('base64')}`;

/** `nen keygen --kid KID`: the NEN_SERVER_KEYS entry and the public pin. */
function keygen(kid: string): { entry: string; pin: string } {
  const r = spawnSync(process.execPath, [NEN, 'keygen', '--kid', kid], { encoding: 'utf8', timeout: 30_000 });
  const line = (name: string) => (new RegExp(`^${name}=(.+)$`, 'm').exec(r.stdout) as RegExpExecArray)[1] as string;
  return { entry: line('NEN_SERVER_KEYS'), pin: line('NEXT_PUBLIC_NEN_SERVER_KEY') };
}

const received: number[] = [];
const store = new MemoryReplayStore();
let route: (request: Request) => Promise<Response> = () => Promise.resolve(new Response(null, { status: 503 }));
let server: Server;
let url = '';

/** A redeploy: the receiver's route rebuilt from a new NEN_SERVER_KEYS value. */
function deploy(serverKeys: string): void {
  route = withNenWebhook(
    async (payload) => {
      received.push(payload.json<{ n: number }>().n);
    },
    { identity: serverKeys, hmacSecret: secret, store },
  );
}

async function deliver(n: number, pin: string): Promise<{ status: number; code?: string }> {
  const w = await sealWebhook({ n }, { recipients: pin, hmacSecret: secret });
  const res = await fetch(url, { method: 'POST', headers: w.headers, body: w.body });
  const text = await res.text();
  return res.status === 204 ? { status: 204 } : { status: res.status, code: (JSON.parse(text) as { error: string }).error };
}

beforeAll(async () => {
  server = createServer(toNodeHandler((request) => route(request)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/hooks`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('sealed webhooks across a key rotation (real HTTP)', () => {
  it('the sender moves to the new key while the receiver holds both, then the old key is dropped: nothing lost', async () => {
    const old = keygen('old');
    const next = keygen('new');
    const ok = { status: 204 };

    deploy(old.entry);
    for (const n of [1, 2]) expect(await deliver(n, old.pin)).toEqual(ok);
    // The new key is not held yet: a sender that switched too early is refused, not lost silently.
    expect(await deliver(0, next.pin)).toEqual({ status: 400, code: 'NEN_SEAL_WEBHOOK_BODY' });

    // Both keys, in the documented comma form (with the spaces PROTOCOL.md §2 allows).
    const inFlight = await sealWebhook({ n: 3 }, { recipients: old.pin, hmacSecret: secret }); // sealed before the switch
    deploy(`${old.entry}, ${next.entry}`);
    expect((await fetch(url, { method: 'POST', headers: inFlight.headers, body: inFlight.body })).status).toBe(204);
    expect(await deliver(4, old.pin)).toEqual(ok);
    for (const n of [5, 6]) expect(await deliver(n, next.pin)).toEqual(ok);
    // The JSON form of the same two keys.
    const json = JSON.stringify(Object.fromEntries([old.entry, next.entry].map((e) => [e.slice(0, e.indexOf(':')), e.slice(e.indexOf(':') + 1)])));
    deploy(json);
    expect(await deliver(7, old.pin)).toEqual(ok);
    expect(await deliver(8, next.pin)).toEqual(ok);

    // The old key dropped.
    deploy(next.entry);
    for (const n of [9, 10]) expect(await deliver(n, next.pin)).toEqual(ok);
    expect(await deliver(-1, old.pin)).toEqual({ status: 400, code: 'NEN_SEAL_WEBHOOK_BODY' });

    expect(received).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
