/**
 * The Wasm bindings themselves: errors thrown by the Rust side (`JsError("NEN_CRYPTO_<X>: …")`)
 * map to NenCryptoError with that code, whatever JS-side pre-checks exist; unknown errors map to
 * NEN_CRYPTO_INTERNAL without leaking their text; freed objects cannot be reused.
 */
import { describe, expect, it } from 'vitest';
import { loadWasmGlue, wasmMemoryByteLength } from './wasm-embedded.js';
import { callWasm, mapWasmError } from './wasm.js';
import { KEM_ID, loadBackend } from '../index.js';
import { codeOf } from '../../test/backends.js';

describe('Wasm glue error mapping', () => {
  const g = loadWasmGlue();

  it('Rust-side length, key, AEAD and unsupported errors keep their codes', () => {
    expect(codeOf(() => callWasm(() => new g.Aead(new Uint8Array(31))))).toBe('NEN_CRYPTO_LENGTH');
    const aead = new g.Aead(new Uint8Array(32));
    try {
      expect(codeOf(() => callWasm(() => aead.seal(new Uint8Array(11), new Uint8Array(0), new Uint8Array(0))))).toBe('NEN_CRYPTO_LENGTH');
      const ct = aead.seal(new Uint8Array(12), new Uint8Array(0), new Uint8Array(5));
      ct[0] = (ct[0] as number) ^ 1;
      expect(codeOf(() => callWasm(() => aead.open(new Uint8Array(12), new Uint8Array(0), ct)))).toBe('NEN_CRYPTO_AEAD');
      expect(codeOf(() => callWasm(() => aead.open(new Uint8Array(12), new Uint8Array(0), new Uint8Array(3))))).toMatch(/NEN_CRYPTO_(LENGTH|AEAD)/);
    } finally {
      aead.free();
    }
    expect(codeOf(() => callWasm(() => g.generate_key_pair(0x0020)))).toBe('NEN_CRYPTO_UNSUPPORTED');
    expect(codeOf(() => callWasm(() => new g.RecipientKey(KEM_ID.XWING, new Uint8Array(31))))).toBe('NEN_CRYPTO_LENGTH');
    const badEk = new Uint8Array(1184).fill(0xff);
    expect(codeOf(() => callWasm(() => g.setup_base_s_export(KEM_ID.MLKEM768, badEk, new Uint8Array(0), new Uint8Array(0), 32)))).toBe('NEN_CRYPTO_KEY');
    expect(codeOf(() => callWasm(() => g.hkdf_expand(new Uint8Array(32), new Uint8Array(0), 8161)))).toBe('NEN_CRYPTO_LENGTH');
    expect(codeOf(() => callWasm(() => g.hkdf_expand(new Uint8Array(31), new Uint8Array(0), 32)))).toBe('NEN_CRYPTO_LENGTH');
  });

  it('unknown errors become NEN_CRYPTO_INTERNAL without their text', () => {
    const e = mapWasmError(new Error('RuntimeError: unreachable secret=abcdef'));
    expect(e.code).toBe('NEN_CRYPTO_INTERNAL');
    expect(e.message).not.toContain('abcdef');
  });

  it('a freed glue object cannot be reused', () => {
    const rk = new g.RecipientKey(KEM_ID.XWING, new Uint8Array(32).fill(1));
    rk.free();
    expect(() => rk.setup_base_r_export(new Uint8Array(1120), new Uint8Array(0), new Uint8Array(0), 32)).toThrow();
  });
});

describe('Wasm memory stays bounded', () => {
  it('creating and disposing thousands of keys and AEADs does not grow the linear memory', async () => {
    const b = await loadBackend('wasm');
    const sk = b.generateKeyPair(KEM_ID.XWING).privateKey;
    const cycle = (n: number) => {
      for (let i = 0; i < n; i++) {
        using rk = b.createRecipientKey(KEM_ID.XWING, sk);
        using aead = b.createAead(sk);
        aead.seal(new Uint8Array(12), new Uint8Array(0), new Uint8Array(4096));
        void rk.publicKey;
        b.setupBaseSExport(KEM_ID.XWING, rk.publicKey, new Uint8Array(0), new Uint8Array(0), 32);
      }
    };
    cycle(200); // warm-up: allocator high-water mark
    const before = wasmMemoryByteLength();
    cycle(2000);
    expect(wasmMemoryByteLength()).toBe(before);
  });
});
