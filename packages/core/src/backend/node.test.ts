/**
 * ./node.ts's AEAD with its node:crypto KeyObject: one Aead seals and opens messages on both sides
 * of SMALL_MESSAGE under many nonces exactly as @noble/ciphers does (the KeyObject, made once, is
 * this Aead's key); a tampered large message is NEN_CRYPTO_AEAD; a disposed Aead refuses a large
 * message as it does a small one; two Aeads never share a key; a text is sealed as its UTF-8 bytes.
 */
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { describe, expect, it } from 'vitest';
import { NenCryptoError } from '../errors.js';
import { loadBackend } from '../index.js';
import { concatBytes } from '../protocol/bytes.js';
import type { TextSealingAead } from '../protocol/message.js';
import { SMALL_MESSAGE } from './node.js';
import { randomBytes } from './random.js';

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof NenCryptoError ? e.code : String(e);
  }
  return undefined;
};

describe('node backend AEAD (node:crypto from SMALL_MESSAGE bytes)', () => {
  it('one Aead, many nonces, small and large messages in any order: equals @noble/ciphers both ways', async () => {
    const b = await loadBackend('node');
    const key = randomBytes(32);
    using aead = b.createAead(key);
    for (const len of [SMALL_MESSAGE, 10, 102_400, SMALL_MESSAGE - 1, SMALL_MESSAGE + 1, 70_000]) {
      const nonce = randomBytes(12);
      const aad = randomBytes(len % 61);
      const pt = randomBytes(len);
      const ref = chacha20poly1305(key, nonce, aad).encrypt(pt);
      expect(aead.seal(nonce, aad, pt)).toEqual(ref);
      expect(aead.open(nonce, aad, ref)).toEqual(pt);
      const bad = ref.slice();
      bad[len >> 1] = (bad[len >> 1] as number) ^ 1;
      expect(codeOf(() => aead.open(nonce, aad, bad))).toBe('NEN_CRYPTO_AEAD');
    }
  });

  it('sealTextChunks seals the UTF-8 bytes of a text (node:crypto encoding it) exactly as @noble/ciphers; disposed: NEN_CRYPTO_DISPOSED', async () => {
    const b = await loadBackend('node');
    const key = randomBytes(32);
    const aead = b.createAead(key) as ReturnType<typeof b.createAead> & TextSealingAead;
    // ASCII, two-, three- and four-byte sequences, a lone surrogate (U+FFFD, as TextEncoder does)
    const unit = 'a{"k":"é✓😀"}\uD800';
    for (const n of [1, SMALL_MESSAGE / 2, SMALL_MESSAGE, 102_400]) {
      const text = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
      const nonce = randomBytes(12);
      const aad = randomBytes(n % 53);
      const ref = chacha20poly1305(key, nonce, aad).encrypt(new TextEncoder().encode(text));
      const chunks = aead.sealTextChunks(nonce, aad, text);
      expect(concatBytes(...chunks), String(n)).toEqual(ref);
      if (n >= SMALL_MESSAGE) expect(chunks.length).toBe(2); // ciphertext, tag: unjoined
    }
    aead.dispose();
    expect(codeOf(() => aead.sealTextChunks(randomBytes(12), new Uint8Array(0), 'x'.repeat(SMALL_MESSAGE)))).toBe('NEN_CRYPTO_DISPOSED');
  });

  it('two Aeads keep their own keys; a disposed one refuses large messages (NEN_CRYPTO_DISPOSED)', async () => {
    const b = await loadBackend('node');
    const [k1, k2] = [randomBytes(32), randomBytes(32)];
    const a1 = b.createAead(k1);
    const a2 = b.createAead(k2);
    const nonce = randomBytes(12);
    const pt = randomBytes(SMALL_MESSAGE * 4);
    const c1 = a1.seal(nonce, new Uint8Array(0), pt);
    const c2 = a2.seal(nonce, new Uint8Array(0), pt);
    expect(c1).toEqual(chacha20poly1305(k1, nonce).encrypt(pt));
    expect(c2).toEqual(chacha20poly1305(k2, nonce).encrypt(pt));
    expect(codeOf(() => a1.open(nonce, new Uint8Array(0), c2))).toBe('NEN_CRYPTO_AEAD');
    a1.dispose();
    expect(codeOf(() => a1.seal(nonce, new Uint8Array(0), pt))).toBe('NEN_CRYPTO_DISPOSED');
    expect(codeOf(() => a1.open(nonce, new Uint8Array(0), c1))).toBe('NEN_CRYPTO_DISPOSED');
    expect(a2.open(nonce, new Uint8Array(0), c2)).toEqual(pt);
    a2.dispose();
  });
});
