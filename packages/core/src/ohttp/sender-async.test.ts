/**
 * OHTTP's client encapsulation with the KEM on WebCrypto (./sender-async.ts), opened by the
 * gateway. Node 24 has WebCrypto ML-KEM-768 and X25519 (.tools/node24, installed by
 * scripts/setup.sh), so the WebCrypto path runs there in a child process on the built dist/ (only
 * the ohttp entry imported first: no Wasm loader, as in a browser): every X-Wing / ML-KEM-768
 * encapsulation (plain and chunked, ChaCha20-Poly1305 and AES-128-GCM) goes through
 * `encapsulateBits` (counted) and opens with the @noble gateway, then again with the Wasm (Rust)
 * gateway once the Node entry has loaded it; the response opens; bad keys keep the sync path's
 * codes; with a given shared secret, the ChaCha20-Poly1305 request is the bytes of ./hpke.ts's
 * context. In this process (Node 20: no WebCrypto ML-KEM) the async API falls back to @noble, and
 * the key schedule + AES-GCM on WebCrypto are checked byte for byte against ./hpke.ts's context
 * with a given shared secret (a fake KEM), tampered and short responses keeping their codes. The
 * fallback module is one promise (onceRetrying): shared by every call, a rejected import retried.
 * Real Chromium runs the same path end to end: apps/demo/test/ohttp-browser.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ChunkedRequestOpener, encapsulateChunkedRequestAsync } from './chunked.js';
import type { WebCryptoKem } from '../backend/webcrypto-kem.js';
import { randomBytes } from '../backend/random.js';
import { concatBytes, utf8 } from '../protocol/bytes.js';
import { OHTTP_LABEL, decapsulateRequest, encapsulateRequest, requestHeader, requestInfo, sealResponseWithNonce } from './encapsulation.js';
import { HpkeContext, OHTTP_AEAD, OHTTP_KEM } from './hpke.js';
import { OhttpGatewayKeys, generateOhttpKey } from './key-config.js';
import { encapsulateOnWebCrypto, encapsulateRequestAsync, ohttpWebCryptoKem, ohttpWebCryptoSymmetric, onceRetrying } from './sender-async.js';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '../../dist');
const NODE24 = join(here, '../../../../.tools/node24/bin/node');

/** Runs in Node 24 against dist/ (ESM, top-level await); prints one JSON line. */
const SCRIPT = `
const base = process.env.NEN_DIST;
const o = await import(base + '/ohttp/index.js');
let calls = 0;
const orig = crypto.subtle.encapsulateBits.bind(crypto.subtle);
crypto.subtle.encapsulateBits = (...a) => { calls++; return orig(...a); };
const msg = new TextEncoder().encode('binary http request bytes');
const eq = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const code = (p) => p.then(() => 'no error', (e) => e.code ?? String(e));
const out = { webCrypto: (await import(base + '/ohttp/sender-async.js').then((m) => m.ohttpWebCryptoKem())) !== undefined, cases: [], wasm: [] };
const saved = [];
for (const kem of [o.OHTTP_KEM.XWING, o.OHTTP_KEM.MLKEM768]) {
  const keys = o.OhttpGatewayKeys.parse(o.generateOhttpKey(7, kem));
  const [config] = keys.configs();
  for (const aeadId of [3, 1]) {
    const before = calls;
    const c = await o.encapsulateRequestAsync(config, msg, { suite: { kdfId: 1, aeadId } });
    const d = o.decapsulateRequest(keys, c.encapsulatedRequest);
    const answer = await c.openResponse(d.sealResponse(msg));
    const ch = await o.encapsulateChunkedRequestAsync(config, { suite: { kdfId: 1, aeadId } });
    const opener = new o.ChunkedRequestOpener(keys);
    const parts = opener.push(Uint8Array.from([...ch.header, ...ch.sealChunk(msg.subarray(0, 5)), ...ch.sealChunk(msg.subarray(5), true)]));
    parts.push(opener.end());
    const chunked = Uint8Array.from(parts.flatMap((p) => [...p]));
    out.cases.push({ kem, aeadId, native: calls - before, opened: eq(d.request, msg) && eq(answer, msg) && eq(chunked, msg) });
    saved.push({ keys, wire: c.encapsulatedRequest });
  }
  const bad = (pk) => code(o.encapsulateRequestAsync({ ...config, publicKey: pk }, msg));
  const mlBad = config.publicKey.slice();
  mlBad.fill(0xff, 0, 384);
  const xZero = config.publicKey.slice();
  xZero.fill(0, xZero.length - 32);
  out[kem] = { mlkemModulus: await bad(mlBad), x25519LowOrder: kem === o.OHTTP_KEM.XWING ? await bad(xZero) : 'n/a', length: await bad(config.publicKey.subarray(1)) };
}
// the same bytes as ./hpke.ts's context for a given shared secret, ChaCha20-Poly1305 on WebCrypto
{
  const { encapsulateOnWebCrypto } = await import(base + '/ohttp/sender-async.js');
  const { HpkeContext } = await import(base + '/ohttp/hpke.js');
  const e = await import(base + '/ohttp/encapsulation.js');
  const [config] = o.OhttpGatewayKeys.parse(o.generateOhttpKey(9, o.OHTTP_KEM.XWING)).configs();
  const hdr = e.requestHeader(9, config.kemId, 1, 3);
  const info = e.requestInfo('message/bhttp request', hdr);
  const ss = crypto.getRandomValues(new Uint8Array(32));
  const enc = crypto.getRandomValues(new Uint8Array(1120));
  const kemFake = async () => ({ encapsulate: async () => ({ enc, sharedSecret: () => ss.slice() }) });
  const r = { kem: config.kemId, aeadId: 3, publicKey: config.publicKey, hdr, info, responseLabel: new TextEncoder().encode('message/bhttp response') };
  const c = await encapsulateOnWebCrypto(r, msg, kemFake);
  const want = [...hdr, ...enc, ...new HpkeContext(config.kemId, 3, ss, info).seal(new Uint8Array(0), msg)];
  const wire = e.sealResponseWithNonce(new HpkeContext(config.kemId, 3, ss, info), enc, new Uint8Array(32).fill(7), msg);
  out.chachaSameBytes = c !== undefined && eq(c.encapsulatedRequest, want) && eq(await c.openResponse(wire), msg);
}
await import(base + '/index.js');
await o.ohttpKemReady();
for (const s of saved) out.wasm.push(eq(o.decapsulateRequest(s.keys, s.wire).request, msg));
console.log(JSON.stringify(out));
`;

const msg = new TextEncoder().encode('binary http request bytes');

describe('OHTTP encapsulation on WebCrypto (Node 24)', () => {
  it('X-Wing and ML-KEM-768 encapsulations through encapsulateBits open with the @noble and the Wasm gateway; bad keys keep their codes', () => {
    if (!existsSync(NODE24)) throw new Error('.tools/node24 is missing: run scripts/setup.sh');
    if (!existsSync(join(dist, 'ohttp/sender-async.js'))) throw new Error('packages/core/dist is missing: run pnpm --filter @nen/core build');
    const r = JSON.parse(
      execFileSync(NODE24, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', SCRIPT], {
        env: { ...process.env, NEN_DIST: dist },
        encoding: 'utf8',
        timeout: 60_000,
      }),
    );
    expect(r.webCrypto).toBe(true);
    expect(r.cases).toHaveLength(4);
    // one encapsulateBits per request: the plain and the chunked one
    for (const c of r.cases) expect(c).toMatchObject({ native: 2, opened: true });
    expect(r.wasm).toEqual([true, true, true, true]);
    expect(r.chachaSameBytes).toBe(true);
    // the sync (@noble) path's codes for the same keys: see ohttp.test.ts / kem-wasm.test.ts
    expect(r[OHTTP_KEM.XWING]).toEqual({ mlkemModulus: 'NEN_CRYPTO_KEY', x25519LowOrder: 'NEN_CRYPTO_KEY', length: 'NEN_CRYPTO_LENGTH' });
    expect(r[OHTTP_KEM.MLKEM768]).toEqual({ mlkemModulus: 'NEN_CRYPTO_KEY', x25519LowOrder: 'n/a', length: 'NEN_CRYPTO_LENGTH' });
  });
});

describe('OHTTP encapsulation without WebCrypto ML-KEM (this Node)', () => {
  it('the async API takes the sync path and opens with the gateway, plain and chunked', async () => {
    const hasMlKem = typeof (crypto.subtle as { encapsulateBits?: unknown }).encapsulateBits === 'function';
    expect((await ohttpWebCryptoKem()) !== undefined).toBe(hasMlKem);
    const keys = OhttpGatewayKeys.parse(generateOhttpKey(3, OHTTP_KEM.XWING));
    const [config] = keys.configs();
    if (!config) throw new Error('no config');
    const c = await encapsulateRequestAsync(config, msg);
    const d = decapsulateRequest(keys, c.encapsulatedRequest);
    expect(d.request).toEqual(msg);
    expect(await c.openResponse(d.sealResponse(msg))).toEqual(msg);
    const ch = await encapsulateChunkedRequestAsync(config);
    const opener = new ChunkedRequestOpener(keys);
    const parts = opener.push(new Uint8Array([...ch.header, ...ch.sealChunk(msg, true)]));
    parts.push(opener.end());
    expect(new Uint8Array(parts.flatMap((p) => [...p]))).toEqual(msg);
    // the same header as the sync path (key id, KEM, KDF, AEAD)
    expect(c.encapsulatedRequest.subarray(0, 7)).toEqual(encapsulateRequest(config, msg).encapsulatedRequest.subarray(0, 7));
    // later and concurrent requests on the imported fallback: each its own context, each opens
    const more = await Promise.all([1, 2, 3].map(() => encapsulateRequestAsync(config, msg)));
    for (const e of more) {
      const g = decapsulateRequest(keys, e.encapsulatedRequest);
      expect(g.request).toEqual(msg);
      expect(await e.openResponse(g.sealResponse(utf8('answer')))).toEqual(utf8('answer'));
    }
    expect(new Set(more.map((e) => Buffer.from(e.enc).toString('hex'))).size).toBe(3);
  });

  it('once the fallback is loaded, a suite no WebCrypto step applies to (DHKEM(X25519) here) is encapsulated without its awaits: it opens, a tampered answer fails', async () => {
    const keys = OhttpGatewayKeys.parse(generateOhttpKey(4, OHTTP_KEM.X25519));
    const [config] = keys.configs();
    if (!config) throw new Error('no config');
    for (let i = 0; i < 2; i++) {
      const c = await encapsulateRequestAsync(config, msg); // the second at least takes the synchronous path
      const d = decapsulateRequest(keys, c.encapsulatedRequest);
      expect(d.request).toEqual(msg);
      const answer = d.sealResponse(utf8('answer'));
      const tampered = answer.slice();
      tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 1;
      await expect(c.openResponse(tampered)).rejects.toMatchObject({ code: 'NEN_OHTTP_DECRYPT' });
      expect(await c.openResponse(answer)).toEqual(utf8('answer'));
    }
  });
});

describe('onceRetrying (the fallback module behind one promise)', () => {
  it('loads once for every call, concurrent or later', async () => {
    let loads = 0;
    const get = onceRetrying(async () => ({ n: ++loads }));
    const [a, b] = await Promise.all([get(), get()]);
    const c = await get();
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(c).toBe(a);
  });

  it('a rejected load fails each caller holding it, then the next call loads again', async () => {
    let loads = 0;
    const get = onceRetrying(async () => {
      loads++;
      if (loads === 1) throw new Error('chunk fetch failed');
      return 'module';
    });
    const first = await Promise.allSettled([get(), get()]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(loads).toBe(1);
    expect(await get()).toBe('module');
    expect(await get()).toBe('module');
    expect(loads).toBe(2);
  });
});

describe('OHTTP key schedule and AEAD on WebCrypto (this Node: HMAC, AES-GCM)', () => {
  const kemGiving = (enc: Uint8Array, ss: Uint8Array) => async () =>
    ({ encapsulate: async () => ({ enc, sharedSecret: () => ss.slice() }) }) as unknown as WebCryptoKem;
  for (const aeadId of [OHTTP_AEAD.AES_128_GCM, OHTTP_AEAD.AES_256_GCM]) {
    it(`AEAD ${aeadId}: the same bytes as ./hpke.ts's context for a given shared secret; the response opens, tampered / short ones keep their codes`, async () => {
      const [config] = OhttpGatewayKeys.parse(generateOhttpKey(4, OHTTP_KEM.XWING)).configs();
      if (!config) throw new Error('no config');
      const hdr = requestHeader(4, config.kemId, 1, aeadId);
      const info = requestInfo(OHTTP_LABEL.REQUEST, hdr);
      const ss = randomBytes(32);
      const enc = randomBytes(1120);
      const r = { kem: config.kemId, aeadId, publicKey: config.publicKey, hdr, info, responseLabel: utf8(OHTTP_LABEL.RESPONSE) };
      const c = await encapsulateOnWebCrypto(r, msg, kemGiving(enc, ss));
      if (!c) throw new Error('WebCrypto HMAC / AES-GCM missing');
      const ct = new HpkeContext(config.kemId, aeadId, ss, info).seal(new Uint8Array(0), msg);
      expect(c.encapsulatedRequest).toEqual(concatBytes(hdr, enc, ct));
      const answer = utf8('binary http response bytes');
      const wire = sealResponseWithNonce(
        new HpkeContext(config.kemId, aeadId, ss, info),
        enc,
        randomBytes(aeadId === OHTTP_AEAD.AES_128_GCM ? 16 : 32),
        answer,
      );
      expect(await c.openResponse(wire)).toEqual(answer);
      const tampered = wire.slice();
      tampered[tampered.length - 1] = (tampered.at(-1) as number) ^ 1;
      await expect(c.openResponse(tampered)).rejects.toMatchObject({ code: 'NEN_OHTTP_DECRYPT' });
      await expect(c.openResponse(wire.subarray(0, 20))).rejects.toMatchObject({ code: 'NEN_OHTTP_MALFORMED' });
    });
  }

  it('no WebCrypto AEAD (ChaCha20-Poly1305 before Node 24) or no KEM: undefined, the caller keeps the sync context', async () => {
    const [config] = OhttpGatewayKeys.parse(generateOhttpKey(5, OHTTP_KEM.XWING)).configs();
    if (!config) throw new Error('no config');
    const hdr = requestHeader(5, config.kemId, 1, OHTTP_AEAD.AES_128_GCM);
    const r = {
      kem: config.kemId,
      aeadId: OHTTP_AEAD.AES_128_GCM,
      publicKey: config.publicKey,
      hdr,
      info: requestInfo(OHTTP_LABEL.REQUEST, hdr),
      responseLabel: utf8(OHTTP_LABEL.RESPONSE),
    };
    expect(await encapsulateOnWebCrypto(r, msg, async () => undefined)).toBeUndefined();
    expect(await encapsulateOnWebCrypto(r, msg, kemGiving(randomBytes(1120), randomBytes(32)), {})).toBeUndefined();
    expect(await ohttpWebCryptoSymmetric(0x9999)).toBeUndefined();
  });
});
