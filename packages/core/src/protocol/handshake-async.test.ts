/**
 * ./handshake-async.ts in Node: without `asyncKem` (Node's backends) it is the sync handshake; with
 * an `asyncKem` (here @noble's sync operations behind promises, the export deferred as WebCrypto's
 * is: the real one runs in Chromium in test/webcrypto-kem.browser.test.ts) it agrees with
 * serverHandshake, fails confirmation on a changed ServerHello, is single-use, wipes exported_s on
 * dispose and disposes the ephemeral key when the pinned encapsulation fails. And
 * detectWebCryptoKem falls back (undefined) where WebCrypto lacks ML-KEM, as on Node 20.
 */
import { describe, expect, it } from 'vitest';
import { createNobleBackend } from '../backend/noble.js';
import { KEM_ID, type AsyncKem, type Backend } from '../backend/types.js';
import { detectWebCryptoKem } from '../backend/webcrypto-kem.js';
import { toBase64Url } from './bytes.js';
import { clientHandshakeStartAsync } from './handshake-async.js';
import { parseServerKeyPin, serverHandshake } from './handshake.js';

const noble = createNobleBackend();
const serverKey = noble.generateKeyPair(KEM_ID.XWING);
const keys = new Map([['k1', noble.createRecipientKey(KEM_ID.XWING, serverKey.privateKey)]]);
const pin = parseServerKeyPin(`k1:${toBase64Url(serverKey.publicKey)}`);
const params = { keys, sessionId: new Uint8Array(16).fill(7), maxLifetime: 600, idleTimeout: 60, now: 1 };
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (e: { code?: string }) => e.code ?? String(e),
  );

/** @noble's KEM operations behind promises; records the exports it hands out and the keys it disposes. */
function fakeAsyncKem(failEncap = false) {
  const exported: Uint8Array[] = [];
  let disposed = 0;
  const kem: AsyncKem = {
    async createRecipientKey(k, sk) {
      const rk = noble.createRecipientKey(k, sk);
      return {
        kem: k,
        publicKey: rk.publicKey,
        setupBaseRExport: async (enc, info, ctx, length) => rk.setupBaseRExport(enc, info, ctx, length),
        dispose: () => {
          disposed++;
          rk.dispose();
        },
        [Symbol.dispose]: () => rk.dispose(),
      };
    },
    async setupBaseSExport(k, pk, info, ctx, length) {
      if (failEncap) throw Object.assign(new Error('bad key'), { code: 'NEN_CRYPTO_KEY' });
      const s = noble.setupBaseSExport(k, pk, info, ctx, length);
      exported.push(s.exported);
      return { enc: s.enc, exported: new Promise((r) => setTimeout(() => r(s.exported), 0)) };
    },
  };
  return { kem, exported, disposedCount: () => disposed };
}

const withKem = (asyncKem: AsyncKem): Backend => ({ ...noble, asyncKem });

describe('clientHandshakeStartAsync', () => {
  it('without asyncKem: the sync handshake (pinned and unpinned, ML-KEM-768)', async () => {
    const st = await clientHandshakeStartAsync(noble, { pin });
    const s = serverHandshake(noble, st.hello, params);
    expect((await st.finish(s.response)).secret).toEqual(s.secret);
    const u = await clientHandshakeStartAsync(noble, { kem: KEM_ID.MLKEM768 });
    const su = serverHandshake(noble, u.hello, params);
    expect((await u.finish(su.response)).secret).toEqual(su.secret);
    expect(await code(u.finish(su.response))).toBe('NEN_HANDSHAKE_FAILED');
  });

  it('with asyncKem: agrees with serverHandshake; a changed ServerHello or a second finish fails', async () => {
    const f = fakeAsyncKem();
    const st = await clientHandshakeStartAsync(withKem(f.kem), { pin, lifetime: 300 });
    const s = serverHandshake(noble, st.hello, params);
    const r = await st.finish(s.response);
    expect(r.secret).toEqual(s.secret);
    expect(r.kid).toBe('k1');
    expect(f.exported[0]?.every((b) => b === 0)).toBe(true); // exported_s wiped once used
    expect(await code(st.finish(s.response))).toBe('NEN_HANDSHAKE_FAILED');
    const st2 = await clientHandshakeStartAsync(withKem(f.kem), { pin });
    const bad = serverHandshake(noble, st2.hello, params).response;
    bad[40] = (bad[40] as number) ^ 1;
    expect(await code(st2.finish(bad))).toBe('NEN_HANDSHAKE_FAILED');
    expect(await code(clientHandshakeStartAsync(withKem(f.kem), { pin, lifetime: -1 }))).toBe('NEN_BAD_INPUT');
  });

  it('dispose wipes exported_s; a failed pinned encapsulation disposes the ephemeral key', async () => {
    const f = fakeAsyncKem();
    const st = await clientHandshakeStartAsync(withKem(f.kem), { pin });
    st.dispose();
    await new Promise((r) => setTimeout(r, 5));
    expect(f.exported[0]?.every((b) => b === 0)).toBe(true);
    expect(f.disposedCount()).toBe(1);
    const failing = fakeAsyncKem(true);
    expect(await code(clientHandshakeStartAsync(withKem(failing.kem), { pin }))).toBe('NEN_CRYPTO_KEY');
    expect(failing.disposedCount()).toBe(1);
  });
});

describe('detectWebCryptoKem', () => {
  it('is undefined without WebCrypto ML-KEM (Node 20, older browsers) or when the probe fails', async () => {
    expect(await detectWebCryptoKem(null)).toBeUndefined();
    expect(await detectWebCryptoKem({})).toBeUndefined();
    const fails = async () => {
      throw new Error('NotSupportedError');
    };
    const partial = { importKey: fails, exportKey: fails, getPublicKey: fails, encapsulateBits: fails, decapsulateBits: fails };
    expect(await detectWebCryptoKem(partial)).toBeUndefined();
  });
});
