/**
 * ./noble.ts with `defer` (the browser's @noble backend, ./index.browser.ts): a recipient key
 * whose ML-KEM matrix expansion is left to a later task decapsulates to the same secrets as an
 * eagerly prepared one, whether the task ran before the first decapsulation or not (then it
 * prepares itself), and a task that runs after dispose does nothing.
 */
import { describe, expect, it } from 'vitest';
import { createNobleBackend } from './noble.js';
import { KEM_ID, type KemId } from './types.js';

const info = new Uint8Array([1, 2, 3]);
const ctx = new Uint8Array([4, 5]);

describe('noble backend, deferred preparation of recipient keys', () => {
  for (const kem of [KEM_ID.XWING, KEM_ID.MLKEM768] as KemId[]) {
    it(`KEM 0x${kem.toString(16)}: same secrets as an eager key, task run before, after or never`, () => {
      const tasks: (() => void)[] = [];
      const deferred = createNobleBackend({ defer: (t) => tasks.push(t) });
      const eager = createNobleBackend();
      const { privateKey, publicKey } = eager.generateKeyPair(kem);
      const reference = eager.createRecipientKey(kem, privateKey);
      const before = deferred.createRecipientKey(kem, privateKey); // task run before decapsulating
      const never = deferred.createRecipientKey(kem, privateKey); // decapsulates with the task pending
      expect(tasks).toHaveLength(2);
      tasks[0]?.();
      for (let i = 0; i < 3; i++) {
        const s = eager.setupBaseSExport(kem, publicKey, info, ctx, 32);
        const want = reference.setupBaseRExport(s.enc, info, ctx, 32);
        expect(want).toEqual(s.exported);
        expect(before.setupBaseRExport(s.enc, info, ctx, 32)).toEqual(want);
        expect(never.setupBaseRExport(s.enc, info, ctx, 32)).toEqual(want);
        const sealed = eager.sealBase(kem, publicKey, info, ctx, Uint8Array.of(i));
        expect(never.openBase(sealed.enc, info, ctx, sealed.ciphertext)).toEqual(Uint8Array.of(i));
      }
      tasks[1]?.(); // the pending task of a key that prepared itself: no change
      expect(never.publicKey).toEqual(publicKey);
      for (const k of [reference, before, never]) k.dispose();
    });
  }

  it('a task that runs after dispose does nothing; the key stays disposed', () => {
    const tasks: (() => void)[] = [];
    const b = createNobleBackend({ defer: (t) => tasks.push(t) });
    const { privateKey, publicKey } = b.generateKeyPair(KEM_ID.XWING);
    const key = b.createRecipientKey(KEM_ID.XWING, privateKey);
    key.dispose();
    expect(() => tasks[0]?.()).not.toThrow();
    const s = b.setupBaseSExport(KEM_ID.XWING, publicKey, info, ctx, 32);
    expect(() => key.setupBaseRExport(s.enc, info, ctx, 32)).toThrow(expect.objectContaining({ code: expect.stringMatching(/^NEN_/) }));
  });
});
