/**
 * Nen key schedule (PROTOCOL.md "Key schedule"): from an epoch secret S_n (32 bytes) derive the
 * directional ChaCha20-Poly1305 keys and base nonces with HKDF-Expand (RFC 5869 §2.3), and the
 * next epoch secret S_{n+1} = HKDF-Expand(S_n, "nen/1 rekey", 32) (rekey without a KEM).
 *
 * Pitfalls:
 *  - c2s and s2c keys are distinct (different labels): a key is never used in both directions.
 *  - Nonce = base IV XOR (u32 record index || u64 sequence number) (RFC 8439 §2.8 leaves nonce
 *    uniqueness to the protocol). A (key, seq, index) triple is sealed at most once because the
 *    client never reuses a sequence number and the server seals one response per accepted seq.
 *  - SessionKeys hold backend Aead objects (Wasm memory): always dispose them.
 */
import type { Aead, Backend } from '../backend/types.js';
import { AEAD_KEY_LENGTH, AEAD_NONCE_LENGTH } from '../backend/types.js';
import { LABEL, SECRET_LENGTH } from './constants.js';

export interface EpochKeyMaterial {
  readonly c2sKey: Uint8Array;
  readonly c2sIv: Uint8Array;
  readonly s2cKey: Uint8Array;
  readonly s2cIv: Uint8Array;
}

export function deriveEpochKeyMaterial(backend: Backend, epochSecret: Uint8Array): EpochKeyMaterial {
  if (epochSecret.length !== SECRET_LENGTH) throw new RangeError('nen: epoch secret must be 32 bytes');
  return {
    c2sKey: backend.hkdfExpand(epochSecret, LABEL.c2sKey, AEAD_KEY_LENGTH),
    c2sIv: backend.hkdfExpand(epochSecret, LABEL.c2sIv, AEAD_NONCE_LENGTH),
    s2cKey: backend.hkdfExpand(epochSecret, LABEL.s2cKey, AEAD_KEY_LENGTH),
    s2cIv: backend.hkdfExpand(epochSecret, LABEL.s2cIv, AEAD_NONCE_LENGTH),
  };
}

/** deriveEpochKeyMaterial on the backend's async HKDF where it has one (browsers: WebCrypto), same bytes. */
export async function deriveEpochKeyMaterialAsync(backend: Backend, epochSecret: Uint8Array): Promise<EpochKeyMaterial> {
  const a = backend.asyncSymmetric;
  if (!a) return deriveEpochKeyMaterial(backend, epochSecret);
  if (epochSecret.length !== SECRET_LENGTH) throw new RangeError('nen: epoch secret must be 32 bytes');
  const [c2sKey, c2sIv, s2cKey, s2cIv] = await Promise.all([
    a.hkdfExpand(epochSecret, LABEL.c2sKey, AEAD_KEY_LENGTH),
    a.hkdfExpand(epochSecret, LABEL.c2sIv, AEAD_NONCE_LENGTH),
    a.hkdfExpand(epochSecret, LABEL.s2cKey, AEAD_KEY_LENGTH),
    a.hkdfExpand(epochSecret, LABEL.s2cIv, AEAD_NONCE_LENGTH),
  ]);
  return { c2sKey, c2sIv, s2cKey, s2cIv };
}

export function nextEpochSecret(backend: Backend, epochSecret: Uint8Array): Uint8Array {
  return backend.hkdfExpand(epochSecret, LABEL.rekey, SECRET_LENGTH);
}

/**
 * Nonce for (seq, record index): base IV XOR (u32be index || u64be seq), written into `n` (a
 * caller's scratch buffer; a fresh one by default) unless seq is above 2^53.
 */
export function computeNonce(baseIv: Uint8Array, seq: bigint, index = 0, n = new Uint8Array(AEAD_NONCE_LENGTH)): Uint8Array {
  const s = Number(seq);
  // Every sequence number below 2^53 (all of them in practice) converts exactly: bytes written
  // directly, without a DataView or a BigInt store (this runs for every message and record).
  if (!(s >= 0 && s <= Number.MAX_SAFE_INTEGER)) return computeNonceWide(baseIv, seq, index);
  const hi = Math.floor(s / 0x1_0000_0000);
  const lo = s >>> 0;
  const i = index >>> 0;
  for (let k = 0, sh = 24; k < 4; k++, sh -= 8) {
    n[k] = (baseIv[k] as number) ^ ((i >>> sh) & 0xff);
    n[k + 4] = (baseIv[k + 4] as number) ^ ((hi >>> sh) & 0xff);
    n[k + 8] = (baseIv[k + 8] as number) ^ ((lo >>> sh) & 0xff);
  }
  return n;
}

/** computeNonce for any u64 sequence number (and the reference the fast path is tested against). */
export function computeNonceWide(baseIv: Uint8Array, seq: bigint, index = 0): Uint8Array {
  const n = new Uint8Array(AEAD_NONCE_LENGTH);
  const dv = new DataView(n.buffer);
  dv.setUint32(0, index >>> 0);
  dv.setBigUint64(4, seq);
  for (let i = 0; i < AEAD_NONCE_LENGTH; i++) n[i] = (n[i] as number) ^ (baseIv[i] as number);
  return n;
}

/** Directional AEAD keys of one (session, epoch). */
export class SessionKeys implements Disposable {
  readonly epoch: number;
  readonly c2s: Aead;
  readonly s2c: Aead;
  readonly c2sIv: Uint8Array;
  readonly s2cIv: Uint8Array;
  #disposed = false;

  /** `m`: the material when derived already (`SessionKeys.create`). */
  constructor(backend: Backend, epochSecret: Uint8Array, epoch: number, m = deriveEpochKeyMaterial(backend, epochSecret)) {
    this.epoch = epoch;
    this.c2s = backend.createAead(m.c2sKey);
    this.s2c = backend.createAead(m.s2cKey);
    this.c2sIv = m.c2sIv;
    this.s2cIv = m.s2cIv;
    m.c2sKey.fill(0);
    m.s2cKey.fill(0);
  }

  /** The keys of (epochSecret, epoch), derived on the backend's async HKDF where it has one. */
  static async create(backend: Backend, epochSecret: Uint8Array, epoch: number): Promise<SessionKeys> {
    return new SessionKeys(backend, epochSecret, epoch, await deriveEpochKeyMaterialAsync(backend, epochSecret));
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.c2s.dispose();
    this.s2c.dispose();
    this.c2sIv.fill(0);
    this.s2cIv.fill(0);
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  toJSON(): object {
    return { epoch: this.epoch, keys: '[redacted]' };
  }
}
