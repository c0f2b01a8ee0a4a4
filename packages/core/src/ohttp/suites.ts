/**
 * The OHTTP suites' ids and sizes (RFC 9458 §3, RFC 9180 §7): KEMs X-Wing 0x647a, ML-KEM-768
 * 0x0041, DHKEM(X25519) 0x0020; KDF HKDF-SHA256; AEADs AES-128-GCM, AES-256-GCM,
 * ChaCha20-Poly1305. Constants only, so that the browser client's static graph
 * (./client-entry.ts) reads them without ./hpke.ts and its @noble fallbacks (issue 23).
 *
 * Pitfall: ./hpke.ts re-exports these; add nothing here that imports a primitive.
 */
import { KEM_ID, KEM_SIZES } from '../backend/types.js';

/** HPKE KEM ids usable for OHTTP key configs. */
export const OHTTP_KEM = { XWING: KEM_ID.XWING, MLKEM768: KEM_ID.MLKEM768, X25519: 0x0020 } as const;
export type OhttpKemId = (typeof OHTTP_KEM)[keyof typeof OHTTP_KEM];
/** HPKE KDF / AEAD ids (RFC 9180 §7.2, §7.3). */
export const OHTTP_KDF = { HKDF_SHA256: 0x0001 } as const;
export const OHTTP_AEAD = { AES_128_GCM: 0x0001, AES_256_GCM: 0x0002, CHACHA20_POLY1305: 0x0003 } as const;

/** Npk, Nsk, Nenc per KEM; `pq` is false for the classical DHKEM(X25519). */
export const OHTTP_KEM_INFO: Record<OhttpKemId, { publicKey: number; privateKey: number; enc: number; pq: boolean; name: string }> = {
  [OHTTP_KEM.XWING]: { ...KEM_SIZES[KEM_ID.XWING], pq: true, name: 'X-Wing' },
  [OHTTP_KEM.MLKEM768]: { ...KEM_SIZES[KEM_ID.MLKEM768], pq: true, name: 'ML-KEM-768' },
  [OHTTP_KEM.X25519]: { publicKey: 32, privateKey: 32, enc: 32, pq: false, name: 'DHKEM(X25519, HKDF-SHA256)' },
};
/** Nk, Nn per AEAD. */
export const OHTTP_AEAD_INFO: Record<number, { nk: number; nn: number }> = {
  [OHTTP_AEAD.AES_128_GCM]: { nk: 16, nn: 12 },
  [OHTTP_AEAD.AES_256_GCM]: { nk: 32, nn: 12 },
  [OHTTP_AEAD.CHACHA20_POLY1305]: { nk: 32, nn: 12 },
};
export const AEAD_TAG = 16;

export function isOhttpKem(id: number): id is OhttpKemId {
  return id === OHTTP_KEM.XWING || id === OHTTP_KEM.MLKEM768 || id === OHTTP_KEM.X25519;
}
export function isOhttpAead(id: number): boolean {
  return OHTTP_AEAD_INFO[id] !== undefined;
}
