/**
 * Issue 23: "our client's requests open with that crate", with the client itself: @nen/client in
 * OHTTP mode (what it really sends: its async encapsulation, which is WebCrypto's ML-KEM-768 and
 * X25519 on Node 24 and the split OpenSSL X25519 + Wasm ML-KEM-768 on Node 20, and the inner
 * Binary HTTP with the Date and headers it adds) posts to a node:http relay
 * on 127.0.0.1 whose gateway is the Rust `ohttp` 0.8 crate (crates/ohttp-interop `gateway`, one
 * request per process); the crate opens the request, and the client opens the crate's answer into
 * a Response. X-Wing and X25519 (`allowClassical`). ohttp-rust.test.ts builds the driver and
 * covers our codec and gateway against the crate.
 *
 * Pitfall: the crate makes a fresh key per process, so each case starts its own driver and gives
 * the client that Key Config by value (nothing fetched).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createNenClient } from '@nen/client';
import { OHTTP_KEM, parseKeyConfigs } from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenLoopback } from '../http-harness.js';
import { driver, hex, unhex } from './driver.js';

const CRATE = join(import.meta.dirname, '../../../../crates/ohttp-interop');
const BIN = join(CRATE, 'target/release/ohttp-interop');

let current: ReturnType<typeof driver> | undefined;
const seen: string[] = [];
const relay = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', async () => {
    try {
      const d = current as ReturnType<typeof driver>;
      d.send(hex(Buffer.concat(parts)));
      const request = await d.line();
      seen.push(request);
      if (request.startsWith('error')) throw new Error(request); // the crate could not open it
      const answer = await d.line();
      if (answer.startsWith('error')) throw new Error(answer);
      res.writeHead(200, { 'content-type': 'message/ohttp-res' }).end(unhex(answer));
    } catch (e) {
      seen.push(String(e));
      res.writeHead(400, { 'content-type': 'text/plain' }).end();
    }
  });
});
let url = '';

beforeAll(async () => {
  if (!existsSync(BIN) || process.env.CI) {
    execFileSync('cargo', ['build', '--release', '--quiet', '--locked', '--manifest-path', join(CRATE, 'Cargo.toml')], { stdio: 'inherit' });
  }
  url = await listenLoopback(relay);
}, 600_000);
afterAll(async () => {
  current?.child.kill();
  await closeServer(relay);
});

describe('@nen/client OHTTP mode -> the Rust ohttp 0.8 gateway', () => {
  for (const kem of ['xwing', 'x25519'] as const) {
    it(`${kem}: the crate opens the client's request, the client opens the crate's answer`, async () => {
      current = driver(BIN, ['gateway', '--kem', kem]);
      const list = unhex(await current.line());
      expect(parseKeyConfigs(list)[0]?.kemId).toBe(kem === 'xwing' ? OHTTP_KEM.XWING : OHTTP_KEM.X25519);
      const client = createNenClient({
        mode: 'ohttp',
        baseUrl: 'https://app.example',
        relay: `${url}/relay`,
        keyConfig: list.subarray(2), // application/ohttp-keys: a 2-byte length, then the one config
        allowClassical: kem === 'x25519',
      });
      seen.length = 0;
      const res = await client.fetch('/api/x', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
      expect(seen).toEqual([`request POST /api/x ${hex(new TextEncoder().encode('hello'))}`]);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain');
      expect(await res.text()).toBe('rust-gateway:hello');
    });
  }
});
