/**
 * The OHTTP key configuration codec (RFC 9458 §3): one Key Config and the
 * `application/ohttp-keys` list (§3.2: each config prefixed with its 2-byte length). What a client
 * needs of ./key-config.ts (which re-exports it with the gateway's key set), without ./hpke.ts
 * and its @noble fallbacks, so the browser client's static graph (./client-entry.ts) stays small.
 *
 * Pitfalls:
 *  - Configs with KEMs Nen does not support are skipped in a list, refused alone; any malformed
 *    byte is NEN_OHTTP_BAD_KEY_CONFIG.
 *  - Parsing a post-quantum config starts loading the Wasm KEM where a runtime entry allows it
 *    (./kem-wasm.ts preloadWasmKem; a no-op in browsers).
 */
import { NenCryptoError } from '../errors.js';
import { concatBytes, u16 } from '../protocol/bytes.js';
import { preloadWasmKem } from './kem-wasm.js';
import { OHTTP_AEAD, OHTTP_KDF, OHTTP_KEM, OHTTP_KEM_INFO, type OhttpKemId, isOhttpKem } from './suites.js';
import { ByteReader, Truncated } from './varint.js';

export interface SymmetricSuite {
  readonly kdfId: number;
  readonly aeadId: number;
}

export interface OhttpKeyConfig {
  readonly keyId: number;
  readonly kemId: OhttpKemId;
  readonly publicKey: Uint8Array;
  readonly suites: readonly SymmetricSuite[];
}

/** The pairs a Nen gateway offers, preferred first. */
export const DEFAULT_SUITES: readonly SymmetricSuite[] = [
  { kdfId: OHTTP_KDF.HKDF_SHA256, aeadId: OHTTP_AEAD.CHACHA20_POLY1305 },
  { kdfId: OHTTP_KDF.HKDF_SHA256, aeadId: OHTTP_AEAD.AES_128_GCM },
];

export function badConfig(reason: string): Error {
  return new NenCryptoError('NEN_OHTTP_BAD_KEY_CONFIG', `nen: invalid OHTTP key configuration: ${reason}`);
}

export function encodeKeyConfig(c: OhttpKeyConfig): Uint8Array {
  if (!Number.isInteger(c.keyId) || c.keyId < 0 || c.keyId > 255) throw badConfig('key id must be 0..255');
  if (c.publicKey.length !== OHTTP_KEM_INFO[c.kemId].publicKey) throw badConfig('public key length');
  if (c.suites.length === 0 || c.suites.length > 16383) throw badConfig('1..16383 symmetric suites');
  const suites = concatBytes(...c.suites.map((s) => concatBytes(u16(s.kdfId), u16(s.aeadId))));
  return concatBytes(Uint8Array.of(c.keyId), u16(c.kemId), c.publicKey, u16(suites.length), suites);
}

/** Parses one Key Config; null when its KEM is not one Nen supports (the caller may skip it). */
function readConfig(r: ByteReader): OhttpKeyConfig | null {
  const keyId = r.u8();
  const kemId = r.u16();
  if (!isOhttpKem(kemId)) return null;
  const publicKey = r.bytes(OHTTP_KEM_INFO[kemId].publicKey).slice();
  const len = r.u16();
  if (len < 4 || len % 4 !== 0) throw badConfig('symmetric algorithms length');
  const suites: SymmetricSuite[] = [];
  for (let i = 0; i < len; i += 4) suites.push({ kdfId: r.u16(), aeadId: r.u16() });
  if (kemId !== OHTTP_KEM.X25519) preloadWasmKem(); // encapsulations to it follow: start loading the Wasm KEM
  return { keyId, kemId, publicKey, suites };
}

/** Exactly one Key Config (no trailing bytes), with a supported KEM. */
export function parseKeyConfig(bytes: Uint8Array): OhttpKeyConfig {
  const r = new ByteReader(bytes);
  try {
    const c = readConfig(r);
    if (!c) throw badConfig('unsupported KEM');
    if (r.remaining !== 0) throw badConfig('trailing bytes');
    return c;
  } catch (e) {
    if (e instanceof Truncated) throw badConfig('truncated');
    throw e;
  }
}

/** application/ohttp-keys: each config as a 2-byte length and the config. */
export function encodeKeyConfigs(configs: readonly OhttpKeyConfig[]): Uint8Array {
  return concatBytes(
    ...configs.map((c) => {
      const b = encodeKeyConfig(c);
      return concatBytes(u16(b.length), b);
    }),
  );
}

/** Parses application/ohttp-keys; configs with unknown KEMs are skipped, malformed ones throw. */
export function parseKeyConfigs(bytes: Uint8Array): OhttpKeyConfig[] {
  const r = new ByteReader(bytes);
  const out: OhttpKeyConfig[] = [];
  try {
    while (r.remaining > 0) {
      const len = r.u16();
      const sub = new ByteReader(r.bytes(len));
      const c = readConfig(sub);
      if (c && sub.remaining !== 0) throw badConfig('config length mismatch');
      if (c) out.push(c);
    }
  } catch (e) {
    if (e instanceof Truncated) throw badConfig('truncated');
    throw e;
  }
  if (out.length === 0) throw badConfig('no supported key configuration');
  return out;
}
