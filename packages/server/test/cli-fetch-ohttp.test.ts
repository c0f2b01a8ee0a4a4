/**
 * `nen fetch --ohttp` (src/cli-fetch.ts; issue 23: "the `nen fetch` command gains the mode") run
 * as the real bin over real HTTP on 127.0.0.1 against @nen/server's gateway at
 * /.well-known/ohttp-gateway (memory store) and, with --relay, through `createOhttpRelay`:
 *  - a `sha256:` pin checked against the served configs: the decrypted status, headers and body
 *    of a withNen handler; a streamed withNenStream answer (chunked OHTTP); `-v` says no handshake;
 *  - `--key-config FILE` (the binary Key Config) with `--relay`: the same answer through the relay;
 *  - a pin the gateway does not serve: exit 3 NEN_OHTTP_KEY_MISMATCH and nothing was POSTed.
 * Argument parsing alone: src/cli-fetch.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toBase64Url } from '@nen/core';
import { OHTTP_KEM, OhttpGatewayKeys, encodeKeyConfig, generateOhttpKey } from '@nen/core/ohttp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNen, memoryStore } from '../src/index.js';
import { createOhttpRelay } from '../src/relay.js';
import { runNenFetch } from './cli-run.js';
import { serve, type TestServer } from './http-harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'nen-fetch-ohttp-'));
const nen = createNen({ serverKeys: undefined, store: memoryStore({ shared: false }), logger: () => {} });
const keys = OhttpGatewayKeys.parse(generateOhttpKey(9, OHTTP_KEM.XWING));
const other = OhttpGatewayKeys.parse(generateOhttpKey(9, OHTTP_KEM.XWING));
const config = keys.configs()[0] as ReturnType<typeof keys.configs>[0];
const gateway = nen.ohttpGateway({
  keys,
  routes: {
    '/api/notes': { POST: nen.withNen(async (_req, _ctx, body) => ({ saved: body })) },
    '/api/tokens': {
      POST: nen.withNenStream(async function* () {
        yield 'data: 1\n\n';
        yield 'data: 2\n\n';
      }),
    },
  },
});
let server: TestServer;
let relay: TestServer;
let posts = 0;
let relayed = 0;
let pin = '';

/** The `sha256:` pin of a Key Config, as `nen keygen --ohttp` prints it. */
async function keyConfigPin(c: typeof config): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', encodeKeyConfig(c) as Uint8Array<ArrayBuffer>);
  return `sha256:${toBase64Url(new Uint8Array(d))}`;
}

const run = (args: string[]) => runNenFetch(tmp, args);

beforeAll(async () => {
  pin = await keyConfigPin(config);
  writeFileSync(join(tmp, 'gateway.keyconfig'), encodeKeyConfig(config));
  server = await serve({
    '/.well-known/ohttp-gateway': {
      GET: () => gateway.GET(),
      POST: (r) => {
        posts++;
        return gateway.POST(r);
      },
    },
  });
  const forward = createOhttpRelay({ gateway: `${server.url}/.well-known/ohttp-gateway` });
  relay = await serve({
    '/relay': {
      POST: (r) => {
        relayed++;
        return forward(r);
      },
    },
  });
});
afterAll(async () => {
  await relay?.close();
  await server?.close();
  await nen.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('nen fetch --ohttp', () => {
  it('a sha256: pin: the decrypted answer of a withNen handler and of a stream; -v says no handshake', async () => {
    const r = await run(['--ohttp', `${server.url}/api/notes`, '--key-config', pin, '-d', '{"title":"x"}', '-H', 'content-type: application/json', '-v']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^HTTP 200/);
    expect(r.stdout).toContain('content-type: application/json');
    expect(JSON.parse(r.stdout.slice(r.stdout.indexOf('\n\n') + 2))).toEqual({ saved: { title: 'x' } });
    expect(r.stderr).toContain('* OHTTP: no handshake');
    const s = await run(['--ohttp', `${server.url}/api/tokens`, '--key-config', pin, '-X', 'POST']);
    expect(s.status).toBe(0);
    expect(s.stdout.endsWith('\n\ndata: 1\n\ndata: 2\n\n')).toBe(true);
  });

  it('--key-config FILE with --relay: the same answer through the relay', async () => {
    const before = posts;
    const r = await run([
      '--ohttp',
      `${server.url}/api/notes`,
      '--key-config',
      'gateway.keyconfig',
      '--relay',
      `${relay.url}/relay`,
      '-d',
      '{"via":"relay"}',
      '-H',
      'content-type: application/json',
    ]);
    expect(r.status).toBe(0);
    expect(r.stdout.endsWith('\n\n{"saved":{"via":"relay"}}')).toBe(true);
    expect([posts, relayed]).toEqual([before + 1, 1]); // posted to the relay, which forwarded it
  });

  it('a pin the gateway does not serve: exit 3 NEN_OHTTP_KEY_MISMATCH, nothing posted', async () => {
    const before = posts;
    const r = await run(['--ohttp', `${server.url}/api/notes`, '--key-config', await keyConfigPin(other.configs()[0] as typeof config), '-d', '{}']);
    expect([r.status, r.stderr]).toEqual([3, expect.stringContaining('[NEN_OHTTP_KEY_MISMATCH]')]);
    expect(posts).toBe(before);
  });
});
