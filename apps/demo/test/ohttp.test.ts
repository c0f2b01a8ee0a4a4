/**
 * The demo's OHTTP gateway under `next build && next start` (Next.js, Node runtime) at
 * `/.well-known/ohttp-gateway` (RFC 9540): keys from the real `nen keygen --ohttp`, GET serves
 * them as `application/ohttp-keys`, and @nen/client's OHTTP mode (pinned to the printed sha256:
 * digest) reaches the same `withNen` echo handler session mode uses, with no handshake; the Edge
 * runtime's gateway (/api/edge-ohttp) reaches a `withNen` handler that runs on Edge.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { type LiveServer, repoRoot, startNext } from './live';

let server: LiveServer;
let pin = '';

beforeAll(async () => {
  const out = execFileSync(process.execPath, [join(repoRoot, 'packages/server/bin/nen.js'), 'keygen', '--ohttp', '--key-id', '3'], { encoding: 'utf8' });
  const keys = /^NEN_OHTTP_KEYS=(.+)$/m.exec(out)?.[1];
  pin = /^# (sha256:[A-Za-z0-9_-]{43})$/m.exec(out)?.[1] ?? '';
  if (!keys || !pin) throw new Error(`nen keygen --ohttp printed no key / pin:\n${out}`);
  server = await startNext({ env: { NEN_OHTTP_KEYS: keys } });
});

afterAll(async () => {
  await server?.stop();
});

describe('demo: OHTTP gateway at /.well-known/ohttp-gateway', () => {
  it('GET answers application/ohttp-keys', async () => {
    const res = await fetch(`${server.url}/.well-known/ohttp-gateway`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/ohttp-keys');
    expect((await res.arrayBuffer()).byteLength).toBe(2 + 1 + 2 + 1216 + 2 + 8);
  });

  it('the OHTTP client reaches the withNen echo (no handshake), the pin holds', async () => {
    const gw = `${server.url}/.well-known/ohttp-gateway`;
    const client = createNenClient({ mode: 'ohttp', relay: gw, keyConfig: [pin], keyConfigUrl: gw });
    const res = await client.fetch(`${server.url}/api/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ oblivious: true }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ oblivious: true });
    const wrongPin = createNenClient({ mode: 'ohttp', relay: gw, keyConfig: [`sha256:${'A'.repeat(43)}`], keyConfigUrl: gw });
    await expect(wrongPin.fetch(`${server.url}/api/echo`, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'NEN_OHTTP_KEY_MISMATCH' });
  });

  it('Edge runtime: the gateway at /api/edge-ohttp answers, the inner handler runs on Edge', async () => {
    const gw = `${server.url}/api/edge-ohttp`;
    const list = new Uint8Array(await (await fetch(gw)).arrayBuffer());
    const first = list.subarray(2, 2 + ((list[0]! << 8) | list[1]!));
    const client = createNenClient({ mode: 'ohttp', relay: gw, keyConfig: first });
    const res = await client.fetch(`${server.url}/api/edge-ohttp/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ edge: 1 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ runtime: 'edge', body: { edge: 1 } });
  });
});
