/**
 * ML-KEM-768 (FIPS 203) in node:crypto where the runtime has it (Node.js 24 on OpenSSL 3.5:
 * `crypto.encapsulate` / `crypto.decapsulate` on 'ml-kem-768' KeyObjects). Detected once, lazily
 * (`nativeMlKem768()`); undefined on Node 20 / 22, Edge, workerd and browsers, whose callers keep
 * the Wasm. Four operations: import an encapsulation key (FIPS 203 §7.2 input check), import a
 * decapsulation key from its 64-byte seed d || z (KeyGen_internal, §6.1; the HPKE private key
 * form of draft-ietf-hpke-pq and X-Wing's expanded seed), Encaps (§7.2), Decaps (§7.3).
 *
 * Measured on the 2-core VM, Node 24.21 / OpenSSL 3.5.8, load ~1 (CPU µs per call): Encaps 18.9,
 * Decaps 25.3, public key import 31.6 (raw-public; SPKI DER the same), seed import 82.8 (a whole
 * key generation): import a static key once and keep its KeyObject. Measure before using it in
 * HPKE: the Wasm's ML-KEM (libcrux, simd128) is as fast and needs no import, so the handshake
 * keeps the Wasm (issue 21, side by side in one process, load ~9, CPU µs, medians of 7:
 * ML-KEM-768 SetupBaseS + Export, a fresh pkR, Wasm 34.0 vs import + Encaps + schedule 71.5;
 * SetupBaseR + Export, static key, Wasm 26.3 vs Decaps + export-only schedule 36.0; X-Wing
 * SetupBaseS Wasm 114.7 vs all in node:crypto 151.3, SetupBaseR 87.8 vs 95.3).
 *
 * Pitfalls:
 *  - node:crypto comes through `process.getBuiltinModule` (never a static `node:` import: the
 *    OHTTP code that uses this module is in browser / Edge bundles too); Edge is never probed.
 *  - A runtime with a partial or different node:crypto (workerd's nodejs_compat, Bun, Deno) must
 *    not give wrong bytes: the module is used only after a known answer passed once per process
 *    (Wycheproof mlkem_768_keygen_seed tcId 1: seed -> SHA-256(ek), then Encaps / Decaps agree).
 *  - OpenSSL's import refuses exactly what FIPS 203's encapsulation key check refuses (a wrong
 *    length, a coefficient not reduced mod q: the 132 invalid Wycheproof keys): NEN_CRYPTO_LENGTH /
 *    NEN_CRYPTO_KEY, the Wasm's codes. Decaps never fails on a well-sized ciphertext (implicit
 *    rejection, §6.3).
 *  - Secrets come back as Node Buffers: copied into plain Uint8Arrays and the Buffers wiped.
 *    OpenSSL keeps its own copy of a private key until the KeyObject is collected; drop the
 *    reference on dispose (there is no explicit free).
 */
import { NenCryptoError } from '../errors.js';
import { nodeBuiltin } from './node-builtin.js';
import { assertBytes, assertLength } from './util.js';

/** FIPS 203 ML-KEM-768 sizes (bytes). */
export const MLKEM768 = Object.freeze({ publicKey: 1184, seed: 64, ciphertext: 1088, sharedSecret: 32 });

declare const nativeKey: unique symbol;
/** An OpenSSL 'ml-kem-768' KeyObject (opaque). */
export type NativeMlKemKey = { readonly [nativeKey]: true };

export interface NativeMlKem768 {
  /** Imports ek (1184 bytes), checked as FIPS 203 §7.2 requires. */
  importPublicKey(ek: Uint8Array): NativeMlKemKey;
  /** KeyGen_internal(d, z) from the 64-byte seed d || z: the private KeyObject and ek. */
  importPrivateKeySeed(seed: Uint8Array): { privateKey: NativeMlKemKey; publicKey: Uint8Array };
  /** Encaps(ek): a fresh (K, c). */
  encapsulate(publicKey: NativeMlKemKey): { sharedSecret: Uint8Array; ciphertext: Uint8Array };
  /** Decaps(dk, c) = K (implicit rejection: a wrong c gives another K, never an error). */
  decapsulate(privateKey: NativeMlKemKey, ciphertext: Uint8Array): Uint8Array;
}

interface Buf extends Uint8Array {
  fill(v: number): this;
}
interface KeyObj {
  export(o: { format: 'raw-public' }): Buf;
}
interface NodeCrypto {
  createPublicKey(o: unknown): KeyObj;
  createPrivateKey(o: unknown): KeyObj;
  createHash(alg: 'sha256'): { update(b: Uint8Array): { digest(): Buf } };
  encapsulate(key: unknown): { sharedKey: Buf; ciphertext: Buf };
  decapsulate(key: unknown, ciphertext: Uint8Array): Buf;
}

const TYPE = 'ml-kem-768';
/** Wycheproof mlkem_768_keygen_seed_test.json tcId 1 (vectors/wycheproof): seed and SHA-256 of its ek. */
const KAT_SEED = '7c9935a0b07694aa0c6d10e4db6b1add2fd81a25ccb148032dcd739936737f2d8626ed79d451140800e03b59b956f8210e556067407d13dc90fa9e8b872bfb8f';
const KAT_EK_SHA256 = '86adbca81f4fee893e2fb58fb98aa2fe188f501fed268d7f4056f8c05c4e53c4';

const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const fromHex = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (x) => Number.parseInt(x, 16));

/** A Buffer's bytes as a plain Uint8Array; the Buffer is wiped. */
function take(b: Buf): Uint8Array {
  const out = new Uint8Array(b);
  b.fill(0);
  return out;
}

function nodeCrypto(): NodeCrypto | undefined {
  const c = nodeBuiltin<NodeCrypto>('node:crypto');
  return c && typeof c.encapsulate === 'function' && typeof c.decapsulate === 'function' ? c : undefined;
}

function build(c: NodeCrypto): NativeMlKem768 {
  const pub = (priv: unknown): Uint8Array => new Uint8Array(c.createPublicKey(priv).export({ format: 'raw-public' }));
  return Object.freeze({
    importPublicKey(ek: Uint8Array): NativeMlKemKey {
      assertLength(ek, MLKEM768.publicKey, 'ML-KEM-768 encapsulation key');
      try {
        return c.createPublicKey({ key: ek, format: 'raw-public', asymmetricKeyType: TYPE }) as unknown as NativeMlKemKey;
      } catch (cause) {
        throw new NenCryptoError('NEN_CRYPTO_KEY', 'nen: ML-KEM-768 encapsulation key fails the FIPS 203 input check', { cause });
      }
    },
    importPrivateKeySeed(seed: Uint8Array) {
      assertLength(seed, MLKEM768.seed, 'ML-KEM-768 seed');
      let key: KeyObj;
      try {
        key = c.createPrivateKey({ key: seed, format: 'raw-seed', asymmetricKeyType: TYPE });
      } catch (cause) {
        throw new NenCryptoError('NEN_CRYPTO_INTERNAL', 'nen: node:crypto could not import the ML-KEM-768 seed', { cause });
      }
      return { privateKey: key as unknown as NativeMlKemKey, publicKey: pub(key) };
    },
    encapsulate(publicKey: NativeMlKemKey) {
      const r = c.encapsulate(publicKey);
      return { sharedSecret: take(r.sharedKey), ciphertext: new Uint8Array(r.ciphertext) };
    },
    decapsulate(privateKey: NativeMlKemKey, ciphertext: Uint8Array): Uint8Array {
      assertBytes(ciphertext, 'ML-KEM-768 ciphertext');
      assertLength(ciphertext, MLKEM768.ciphertext, 'ML-KEM-768 ciphertext');
      return take(c.decapsulate(privateKey, ciphertext));
    },
  });
}

/** The known answer: keygen from a Wycheproof seed, then an Encaps / Decaps round trip. */
function selfTest(c: NodeCrypto, m: NativeMlKem768): boolean {
  try {
    const { privateKey, publicKey } = m.importPrivateKeySeed(fromHex(KAT_SEED));
    const digest = c.createHash('sha256').update(publicKey).digest();
    if (toHex(digest) !== KAT_EK_SHA256) return false;
    const { sharedSecret, ciphertext } = m.encapsulate(m.importPublicKey(publicKey));
    const k = m.decapsulate(privateKey, ciphertext);
    return k.length === MLKEM768.sharedSecret && k.every((b, i) => b === sharedSecret[i]);
  } catch {
    return false;
  }
}

let verdict: NativeMlKem768 | null | undefined;

/** node:crypto's ML-KEM-768 after its known answer passed (once per process), else undefined. */
export function nativeMlKem768(): NativeMlKem768 | undefined {
  if (verdict === undefined) {
    const c = nodeCrypto();
    const m = c ? build(c) : undefined;
    verdict = c && m && selfTest(c, m) ? m : null;
  }
  return verdict ?? undefined;
}
