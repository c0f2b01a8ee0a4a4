/**
 * The WebCrypto KEM path (src/backend/webcrypto-kem.ts, the browser's client handshake) in real
 * Chromium (Debian /usr/bin/chromium via playwright-core, never downloaded): dist's ES modules and
 * the @noble packages are served unbundled from 127.0.0.1 behind an import map, and run:
 *  - detection: Chromium 156 has WebCrypto ML-KEM-768 and X25519 (fails if the fast path is lost);
 *  - the hpke-pq vectors (vectors/go-hpke, X-Wing and ML-KEM-768): seed -> public key, and
 *    SetupBaseR + Export of the vector's enc equal to the vectors' exports / the key schedule of
 *    their shared_secret; SetupBaseS with WebCrypto's randomness opened by @noble with skRm;
 *  - the worked example (PROTOCOL.md): ephemeralIkm gives the same pk_eph, enc_e gives exported_e;
 *  - a handshake against serverHandshake (@noble) agrees on S_0; a changed ServerHello fails key
 *    confirmation; a bad encapsulation key, low-order X25519 shares and wrong lengths get codes;
 *  - non-canonical X25519 u-coordinates (top bit set, >= p) give the same secrets as on @noble;
 *  - the browser entry's loadBackend('auto', { syncKem: false }) (the client's): on WebCrypto's
 *    KEMs without fetching @noble's ML-KEM / X25519 modules, and with the fallback forced
 *    (encapsulateBits removed, as on Firefox / Safari) on @noble; a handshake agrees either way,
 *    and its epoch keys and single messages (WebCrypto HKDF and ChaCha20-Poly1305:
 *    src/backend/webcrypto-symmetric.ts) open under @noble's and back; a flipped bit is NEN_CRYPTO_AEAD.
 * Needs the built package (dist/): `pnpm --filter @nen/core build` first (none is skipped).
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../../tests/support/chromium.mjs';
import { createNobleBackend } from '../src/backend/noble.js';
import { formatServerKeyPin } from '../src/protocol/handshake.js';
import workedExample from '../src/protocol/worked-example.vectors.json' with { type: 'json' };
import { IMPORT_MAP, type ModuleServer, serveModules } from '../../../tests/support/browser-modules.mjs';
import { readVector, type HpkeVector } from './vectors.js';

const PAGE = `${IMPORT_MAP}<script type="module">
const load = (p) => import('/dist/' + p);
window.__m = Promise.all(['backend/webcrypto-kem.js', 'backend/noble.js', 'backend/hpke.js', 'protocol/handshake.js', 'protocol/handshake-async.js', 'protocol/constants.js', 'protocol/bytes.js'].map(load))
  .then((mods) => Object.assign({}, ...mods));
</script>`;

/** A page with the import map only: a fresh module map for the browser entry's loader. */
const BARE_PAGE = PAGE.slice(0, PAGE.indexOf('<script type="module">'));

let modules: ModuleServer | undefined;
let browser: Browser | undefined;
let page: Page | undefined;
let origin = '';

beforeAll(async () => {
  modules = await serveModules({ '': PAGE, bare: BARE_PAGE }, 'backend/webcrypto-kem.js');
  origin = modules.origin;
  browser = await chromium.launch(chromiumLaunchOptions());
  page = await browser.newPage();
  await page.goto(`${origin}/`);
  await page.evaluate(() => (window as unknown as { __m: Promise<unknown> }).__m);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await modules?.close();
});

/** Runs `fn` in the page with the dist modules (`m`) and hex helpers; returns its JSON-able result. */
function inPage<A, R>(arg: A, fn: string): Promise<R> {
  return (page as Page).evaluate(
    async ([a, body]) => {
      const m = await (window as unknown as { __m: Promise<Record<string, unknown>> }).__m;
      const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
      const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
      const code = async (f: () => Promise<unknown>) =>
        f().then(
          () => 'no error',
          (e: { code?: string }) => e.code ?? String(e),
        );
      return new Function('m', 'a', 'hex', 'toHex', 'code', `return (async () => { ${body} })()`)(m, a, hex, toHex, code);
    },
    [arg, fn] as const,
  ) as Promise<R>;
}

const pq = readVector<HpkeVector[]>('go-hpke/hpke-pq.json');
const vector = (kem: number, kdf: number, aead: number) => {
  const v = pq.find((x) => x.mode === 0 && x.kem_id === kem && x.kdf_id === kdf && x.aead_id === aead);
  if (!v) throw new Error(`hpke-pq.json has no ${kem}/${kdf}/${aead} vector`);
  return v;
};

describe('WebCrypto KEMs in Chromium (the browser client handshake)', () => {
  it('are detected in Chromium 156', async () => {
    expect(await inPage(null, 'return typeof (await m.detectWebCryptoKem())?.setupBaseSExport')).toBe('function');
  });

  for (const [name, v] of [
    ['X-Wing', vector(0x647a, 1, 3)],
    ['ML-KEM-768', vector(0x0041, 1, 1)],
  ] as const) {
    it(`${name} hpke-pq vector: public key from the seed, SetupBaseR + Export, SetupBaseS opened by @noble`, async () => {
      const r = await inPage<HpkeVector, Record<string, unknown>>(
        v,
        `const k = await m.detectWebCryptoKem();
         const info = hex(a.info);
         const rk = await k.createRecipientKey(a.kem_id, hex(a.skRm));
         const exports = (a.exports ?? [{ exporter_context: '', L: 32 }]).map((e) => [hex(e.exporter_context), e.L]);
         const got = [], want = [];
         for (const [ctx, L] of exports) {
           got.push(toHex(await rk.setupBaseRExport(hex(a.enc), info, ctx, L)));
           want.push(toHex(m.keyScheduleExport(m.nobleHkdf, a.kem_id, hex(a.shared_secret), info, ctx, L)));
         }
         const noble = m.createNobleBackend().createRecipientKey(a.kem_id, hex(a.skRm));
         const s = await k.setupBaseSExport(a.kem_id, hex(a.pkRm), info, exports[0][0], exports[0][1]);
         return { pk: toHex(rk.publicKey), got, want, sent: toHex(await s.exported), opened: toHex(noble.setupBaseRExport(s.enc, info, exports[0][0], exports[0][1])) };`,
      );
      expect(r.pk).toBe(v.pkRm);
      expect(r.got).toEqual(r.want);
      // the exports bind the AEAD id: the vectors' own only for ChaCha20-Poly1305 (0x0003), Nen's suite
      if (v.exports && v.aead_id === 3) expect(r.got).toEqual(v.exports.map((e) => e.exported_value));
      expect(r.opened).toBe(r.sent);
    });
  }

  it("fromBase64Url on Chromium's native Uint8Array.fromBase64 decodes and refuses what the loop does", async () => {
    const r = await inPage(
      null,
      `if (typeof Uint8Array.fromBase64 !== 'function') return 'no Uint8Array.fromBase64';
      const ok = [];
      for (let n = 0; n < 100; n++) {
        const b = crypto.getRandomValues(new Uint8Array(n * 13));
        ok.push(toHex(m.fromBase64Url(m.toBase64Url(b))) === toHex(b));
      }
      const bad = ['A', 'AB=', 'A+B/', 'AB C', 'AR', 'AAB', 'é', 'AAAA ', ' AAAA', 'AA==', 'AAAAAB', 'AAAAAAB', 'AAAA\\nAAAA'];
      return { ok: ok.every(Boolean), bad: bad.map((s) => m.fromBase64Url(s)) };`,
    );
    expect(r).toEqual({ ok: true, bad: Array(13).fill(null) });
  });

  it('the worked example: ephemeralIkm gives its pk_eph, and its enc_e its exported_e', async () => {
    const w = workedExample;
    const r = await inPage<typeof w, Record<string, string>>(
      w,
      `const be = { ...m.createNobleBackend(), asyncKem: await m.detectWebCryptoKem() };
       const pin = m.parseServerKeyPin(a.handshake.pin);
       const st = await m.clientHandshakeStartAsync(be, { pin, ephemeralIkm: hex(a.clientEphemeralIkm), lifetime: a.handshake.requestedLifetimeSeconds });
       const rk = await be.asyncKem.createRecipientKey(0x647a, hex(a.clientEphemeralPrivateKey));
       st.dispose();
       return { head: toHex(st.hello.subarray(0, 8 + 1216)), exportedE: toHex(await rk.setupBaseRExport(hex(a.encE), m.LABEL.hpkeInfoEphemeral, m.LABEL.exporterContext, 32)) };`,
    );
    expect(r.head).toBe(w.clientHello.slice(0, 2 * (8 + 1216)));
    expect(r.exportedE).toBe(w.exportedE);
  });

  it('a handshake with serverHandshake (@noble) agrees on S_0; a changed ServerHello fails confirmation', async () => {
    const r = await inPage<null, Record<string, unknown>>(
      null,
      `const noble = m.createNobleBackend();
       const be = { ...noble, asyncKem: await m.detectWebCryptoKem() };
       const kp = noble.generateKeyPair(0x647a);
       const keys = new Map([['k1', noble.createRecipientKey(0x647a, kp.privateKey)]]);
       const pin = m.parseServerKeyPin(m.formatServerKeyPin('k1', kp.publicKey));
       const p = { keys, sessionId: new Uint8Array(16).fill(5), maxLifetime: 600, idleTimeout: 60, now: 1 };
       const st = await m.clientHandshakeStartAsync(be, { pin });
       const sv = m.serverHandshake(noble, st.hello, p);
       const c = await st.finish(sv.response);
       const st2 = await m.clientHandshakeStartAsync(be, { pin });
       const bad = m.serverHandshake(noble, st2.hello, p).response;
       bad[40] ^= 1;
       const st3 = await m.clientHandshakeStartAsync(be, { kem: 0x0041 });
       const c3 = await st3.finish(m.serverHandshake(noble, st3.hello, { ...p, keys: new Map() }).response);
       return { same: toHex(c.secret) === toHex(sv.secret), tampered: await code(() => st2.finish(bad)), again: await code(() => st.finish(sv.response)), mlkem: c3.secret.length };`,
    );
    expect(r).toEqual({ same: true, tampered: 'NEN_HANDSHAKE_FAILED', again: 'NEN_HANDSHAKE_FAILED', mlkem: 32 });
  });

  it('X25519 u-coordinates with the top bit set or >= p (RFC 7748 §5) decapsulate as on @noble, u = 1 fails on both', async () => {
    const r = await inPage<null, string[][]>(
      null,
      `const k = await m.detectWebCryptoKem();
       const noble = m.createNobleBackend();
       const seed = new Uint8Array(32).fill(11);
       const rk = await k.createRecipientKey(0x647a, seed), nk = noble.createRecipientKey(0x647a, seed);
       const e = new Uint8Array(0), out = [];
       const enc = noble.setupBaseSExport(0x647a, rk.publicKey, e, e, 32).enc;
       const high = enc.slice(); high[1119] |= 0x80;
       const nonCanonical = (low) => { const c = enc.slice(); c.fill(0xff, 1089, 1119); c[1088] = low; c[1119] = 0x7f; return c; };
       // p + 9 (the base point, not reduced) and p + 1 (u = 1, low order: refused by both)
       const run = async (f) => { try { return toHex(await f()); } catch (x) { return x.code; } };
       for (const c of [enc, high, nonCanonical(0xf6), nonCanonical(0xee)]) out.push([await run(() => rk.setupBaseRExport(c, e, e, 32)), await run(async () => nk.setupBaseRExport(c, e, e, 32))]);
       return out;`,
    );
    for (const [web, noble] of r) expect(web).toBe(noble);
    expect(r.map(([web]) => (web?.startsWith('NEN_') ? web : 'secret'))).toEqual(['secret', 'secret', 'secret', 'NEN_CRYPTO_KEY']);
  });

  it('bad keys and lengths get the backends’ codes', async () => {
    const r = await inPage<null, Record<string, string>>(
      null,
      `const k = await m.detectWebCryptoKem();
       const noble = m.createNobleBackend();
       const pk = noble.generateKeyPair(0x647a).publicKey;
       const e = new Uint8Array(0), ctx = new Uint8Array(0);
       const badEk = pk.slice(); badEk[0] = 0xff; badEk[1] = 0xff;
       const lowX = pk.slice(); lowX.fill(0, 1184);
       const rk = await k.createRecipientKey(0x647a, new Uint8Array(32).fill(3));
       const enc = (await k.setupBaseSExport(0x647a, rk.publicKey, e, ctx, 32)).enc;
       const lowEnc = enc.slice(); lowEnc.fill(0, 1088);
       const used = await k.createRecipientKey(0x647a, new Uint8Array(32)); used.dispose();
       return {
         badEk: await code(() => k.setupBaseSExport(0x647a, badEk, e, ctx, 32)),
         lowX: await code(() => k.setupBaseSExport(0x647a, lowX, e, ctx, 32)),
         lowEnc: await code(() => rk.setupBaseRExport(lowEnc, e, ctx, 32)),
         shortPk: await code(() => k.setupBaseSExport(0x647a, pk.subarray(1), e, ctx, 32)),
         shortSeed: await code(() => k.createRecipientKey(0x0041, new Uint8Array(32))),
         unknownKem: await code(() => k.createRecipientKey(0x20, new Uint8Array(32))),
         disposed: await code(() => used.setupBaseRExport(enc, e, ctx, 32)),
       };`,
    );
    expect(r).toEqual({
      badEk: 'NEN_CRYPTO_KEY',
      lowX: 'NEN_CRYPTO_KEY',
      lowEnc: 'NEN_CRYPTO_KEY',
      shortPk: 'NEN_CRYPTO_LENGTH',
      shortSeed: 'NEN_CRYPTO_LENGTH',
      unknownKem: 'NEN_CRYPTO_UNSUPPORTED',
      disposed: 'NEN_CRYPTO_DISPOSED',
    });
  });

  /** The client's handshake on the browser entry's loadBackend('auto', { syncKem: false }) in a fresh context; the KEM modules its start fetched. */
  async function entryHandshake(forceFallback: boolean): Promise<Record<string, unknown>> {
    const noble = createNobleBackend();
    const kp = noble.generateKeyPair(0x647a);
    const ctx = await (browser as Browser).newContext();
    try {
      const p = await ctx.newPage();
      await p.goto(`${origin}/bare`);
      const from = (modules as ModuleServer).served.length;
      // string bodies: the test's own transform would rewrite a function's import()
      const asyncKem = await p.evaluate(`(async () => {
        if (${forceFallback}) delete SubtleCrypto.prototype.encapsulateBits;
        const entry = await import('/dist/backend/index.browser.js');
        const hs = await import('/dist/protocol/handshake-async.js');
        const { parseServerKeyPin } = await import('/dist/protocol/handshake.js');
        const be = await entry.loadBackend('auto', { syncKem: false });
        window.__be = be;
        window.__st = await hs.clientHandshakeStartAsync(be, { pin: parseServerKeyPin(${JSON.stringify(formatServerKeyPin('k1', kp.publicKey))}) });
        return be.asyncKem !== undefined;
      })()`);
      const kemModules = (modules as ModuleServer).served.slice(from).filter((u) => /noble-kem|ml-kem|x25519-noble|montgomery/.test(u));
      const same = await p.evaluate(`(async () => {
        const server = (await import('/dist/backend/noble.js')).createNobleBackend();
        const { serverHandshake } = await import('/dist/protocol/handshake.js');
        const keys = new Map([['k1', server.createRecipientKey(0x647a, Uint8Array.from(${JSON.stringify(Array.from(kp.privateKey))}))]]);
        const sv = serverHandshake(server, window.__st.hello, { keys, sessionId: new Uint8Array(16).fill(7), maxLifetime: 600, idleTimeout: 60, now: 1 });
        const c = await window.__st.finish(sv.response);
        if (!(c.secret.length === 32 && c.secret.every((x, i) => x === sv.secret[i]))) return false;
        // the epoch keys and single messages on WebCrypto (HKDF, ChaCha20-Poly1305) against @noble's
        const { SessionKeys } = await import('/dist/protocol/keys.js');
        const msg = await import('/dist/protocol/message.js');
        const ck = await SessionKeys.create(window.__be, c.secret, 0);
        const sk = new SessionKeys(server, sv.secret, 0);
        const aad = Uint8Array.of(1, 2, 3), pt = new Uint8Array(1000).fill(9);
        const eq = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
        const sealed = await msg.sealMessageNative(ck.c2s, ck.c2sIv, 5n, aad, pt);
        const answer = msg.sealMessage(sk.s2c, sk.s2cIv, 5n, aad, pt);
        const opened = await msg.openMessageNative(ck.s2c, ck.s2cIv, 5n, aad, answer);
        answer[3] ^= 1;
        const tampered = await msg.openMessageNative(ck.s2c, ck.s2cIv, 5n, aad, answer).then(() => 'opened', (e) => e.code);
        window.__native = typeof ck.c2s.sealAsync === 'function' && window.__be.asyncSymmetric !== undefined;
        return eq(msg.openMessage(sk.c2s, sk.c2sIv, 5n, aad, sealed), pt) && eq(opened, pt) && tampered === 'NEN_CRYPTO_AEAD';
      })()`);
      const native = await p.evaluate('window.__native');
      return { asyncKem, same, native, kemModules };
    } finally {
      await ctx.close();
    }
  }

  it("the browser entry's loadBackend('auto', { syncKem: false }) runs the handshake on WebCrypto without @noble's KEMs; forced fallback on @noble", async () => {
    expect(await entryHandshake(false)).toEqual({ asyncKem: true, same: true, native: true, kemModules: [] });
    const fallback = await entryHandshake(true);
    expect(fallback).toMatchObject({ asyncKem: false, same: true, native: true });
    expect((fallback.kemModules as string[]).length).toBeGreaterThan(0);
  });
});
