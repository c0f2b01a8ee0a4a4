/**
 * OHTTP interop with an implementation we did not write: the Rust `ohttp` 0.8 + `bhttp` 0.8
 * crates (crates/ohttp-interop, a dev-only driver, its own Cargo workspace and lockfile, built
 * here with `cargo build --release --locked`).
 *  - The crate encapsulates requests to our gateway over real HTTP (node:http on 127.0.0.1) and
 *    opens our answers: X-Wing (0x647a) and X25519 (0x0020), message/ohttp-req and chunked
 *    (message/ohttp-chunked-req, the crate's `stream` feature); the inner request reaches a
 *    withNen handler. Found: ohttp 0.8.0's chunked *client* panics on ChaCha20-Poly1305 (see the
 *    chunked case), so it is given AES-128-GCM there; its plain client takes ChaCha20-Poly1305.
 *  - Our codec's client encapsulations (what @nen/client's OHTTP mode sends) open with the
 *    crate's server, and we open its answers, for X-Wing and X25519.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OHTTP_KEM, decodeBhttpResponse, encapsulateRequest, encodeBhttpRequest, encodeKeyConfigs, parseKeyConfigs } from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driver, hex, unhex } from './driver.js';
import { type EchoGateway, startEchoGateway } from './echo-gateway.js';

const CRATE = join(import.meta.dirname, '../../../../crates/ohttp-interop');
const BIN = join(CRATE, 'target/release/ohttp-interop');

let gateway: EchoGateway | undefined;
let url = '';

beforeAll(async () => {
  if (!existsSync(BIN) || process.env.CI) {
    execFileSync('cargo', ['build', '--release', '--quiet', '--locked', '--manifest-path', join(CRATE, 'Cargo.toml')], { stdio: 'inherit' });
  }
  gateway = await startEchoGateway();
  url = gateway.url;
}, 600_000);

afterAll(async () => {
  await gateway?.close();
});

describe('Rust ohttp 0.8 client -> our gateway', () => {
  for (const [index, name] of [
    [0, 'X-Wing'],
    [1, 'X25519'],
  ] as const) {
    for (const chunked of [false, true]) {
      it(`${name}, ${chunked ? 'chunked' : 'message/ohttp-req'}: the handler runs, the crate opens the answer`, async () => {
        let list = new Uint8Array(await (await fetch(url)).arrayBuffer());
        let pick = index;
        if (chunked) {
          // ohttp 0.8.0's chunked client panics on an AEAD with Nk = 32 (ChaCha20-Poly1305, our
          // preferred suite): its response nonce buffer is 16 bytes (stream.rs ClientResponse,
          // `nonce: [0; 16]`, sliced to max(Nn, Nk) = 32). It is handed the same config offering
          // only AES-128-GCM, which the gateway also accepts.
          const c = parseKeyConfigs(list)[index]!;
          list = encodeKeyConfigs([{ ...c, suites: [{ kdfId: 1, aeadId: 1 }] }]) as Uint8Array<ArrayBuffer>;
          pick = 0;
        }
        const body = JSON.stringify({ from: 'rust', index, chunked });
        const d = driver(BIN, [
          'client',
          '--index',
          String(pick),
          '--path',
          '/api/echo',
          '--date',
          new Date().toUTCString(),
          '--body',
          body,
          ...(chunked ? ['--chunked'] : []),
        ]);
        d.send(hex(list));
        const enc = await d.line();
        expect(enc).not.toMatch(/^error/);
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': chunked ? 'message/ohttp-chunked-req' : 'message/ohttp-req' },
          body: unhex(enc),
        });
        expect(res.status).toBe(200);
        d.send(hex(new Uint8Array(await res.arrayBuffer())));
        expect(await d.line()).toBe('status 200');
        const got = JSON.parse(Buffer.from((await d.line()).replace(/^body /, ''), 'hex').toString('utf8'));
        expect(got).toEqual({ path: '/api/echo', body: JSON.parse(body) });
      });
    }
  }
});

describe('our client codec -> the Rust ohttp 0.8 gateway', () => {
  for (const kem of ['xwing', 'x25519']) {
    it(`${kem}: the crate opens our encapsulated request, we open its answer`, async () => {
      const d = driver(BIN, ['gateway', '--kem', kem]);
      const [config] = parseKeyConfigs(unhex(await d.line()));
      expect(config?.kemId).toBe(kem === 'xwing' ? OHTTP_KEM.XWING : OHTTP_KEM.X25519);
      const inner = {
        method: 'POST',
        scheme: 'https',
        authority: 'gw',
        path: '/api/x',
        headers: [['content-type', 'text/plain']] as [string, string][],
        content: new TextEncoder().encode('hello'),
        trailers: [],
      };
      const c = encapsulateRequest(config!, encodeBhttpRequest(inner));
      d.send(hex(c.encapsulatedRequest));
      expect(await d.line()).toBe(`request POST /api/x ${hex(new TextEncoder().encode('hello'))}`);
      const r = decodeBhttpResponse(c.openResponse(unhex(await d.line())));
      expect(r.status).toBe(200);
      expect(new TextDecoder().decode(r.content)).toBe('rust-gateway:hello');
    });
  }
});
