/**
 * The browser entry's `loadBackend` (src/backend/index.browser.ts) in Node, with the WebCrypto KEM
 * probe stubbed (Node 20 lacks WebCrypto ML-KEM; real Chromium runs the real probe in
 * webcrypto-kem.browser.test.ts): with WebCrypto's KEMs, `{ syncKem: false }` resolves without
 * the @noble KEM chunk and its sync KEM methods refuse (NEN_CRYPTO_UNSUPPORTED, after the usual
 * KEM id check) until a complete backend is loaded; without them (Firefox / Safari) it is the
 * complete @noble backend; the complete backend carries asyncKem where the probe found it.
 */
import { describe, expect, it, vi } from 'vitest';
import { KEM_ID, type AsyncKem } from '../src/backend/types.js';

const probe = vi.hoisted(() => ({ kem: undefined as AsyncKem | undefined }));
vi.mock('../src/backend/webcrypto-kem.js', () => ({ detectWebCryptoKem: async () => probe.kem }));

const fakeKem: AsyncKem = {
  createRecipientKey: async () => {
    throw new Error('not used');
  },
  setupBaseSExport: async () => {
    throw new Error('not used');
  },
};

async function freshEntry() {
  vi.resetModules();
  return import('../src/backend/index.browser.js');
}

describe('browser loadBackend', () => {
  it('with WebCrypto KEMs, { syncKem: false }: symmetric @noble + asyncKem, sync KEMs refused until a complete backend loads', async () => {
    probe.kem = fakeKem;
    const { loadBackend } = await freshEntry();
    const early = await loadBackend('auto', { syncKem: false });
    expect(early.name).toBe('noble');
    expect(early.asyncKem).toBe(fakeKem);
    expect(await loadBackend('auto', { syncKem: false })).toBe(early);
    expect(early.hkdfExpand(new Uint8Array(32), new Uint8Array(0), 16)).toHaveLength(16);
    const aead = early.createAead(new Uint8Array(32));
    const nonce = new Uint8Array(12);
    expect(aead.open(nonce, new Uint8Array(0), aead.seal(nonce, new Uint8Array(0), Uint8Array.of(1, 2, 3)))).toEqual(Uint8Array.of(1, 2, 3));
    expect(() => early.generateKeyPair(KEM_ID.XWING)).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_UNSUPPORTED' }));
    expect(() => early.createSenderKey(KEM_ID.XWING, new Uint8Array(1216))).toThrow(expect.objectContaining({ code: 'NEN_CRYPTO_UNSUPPORTED' }));
    // an unknown KEM id keeps its usual error
    expect(() => early.generateKeyPair(0x1234 as never)).toThrow(
      expect.objectContaining({ code: 'NEN_CRYPTO_UNSUPPORTED', message: expect.stringMatching(/KEM id/) }),
    );
    const full = await loadBackend('auto');
    expect(full).not.toBe(early);
    expect(full.asyncKem).toBe(fakeKem);
    const kp = full.generateKeyPair(KEM_ID.XWING);
    expect(kp.publicKey).toHaveLength(1216);
    // now the early backend's sync KEMs run on the complete one
    expect(early.deriveKeyPair(KEM_ID.XWING, new Uint8Array(32)).publicKey).toEqual(full.deriveKeyPair(KEM_ID.XWING, new Uint8Array(32)).publicKey);
  });

  it('without WebCrypto KEMs (Firefox / Safari): { syncKem: false } is the complete @noble backend', async () => {
    probe.kem = undefined;
    const { loadBackend } = await freshEntry();
    const b = await loadBackend('auto', { syncKem: false });
    expect(b.asyncKem).toBeUndefined();
    const kp = b.generateKeyPair(KEM_ID.MLKEM768);
    const key = b.createRecipientKey(KEM_ID.MLKEM768, kp.privateKey);
    const s = b.setupBaseSExport(KEM_ID.MLKEM768, kp.publicKey, Uint8Array.of(1), Uint8Array.of(2), 32);
    expect(key.setupBaseRExport(s.enc, Uint8Array.of(1), Uint8Array.of(2), 32)).toEqual(s.exported);
    key.dispose();
    expect(await loadBackend('noble')).toBe(b);
  });
});
