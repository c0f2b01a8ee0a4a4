/**
 * The native age recipient types (c2sp.org/age): `mlkem768x25519` (X-Wing HPKE, post-quantum),
 * `X25519` and `scrypt`. A Recipient wraps the 16-byte file key into stanzas; an Identity
 * unwraps it from the stanzas addressed to it.
 *
 * Identity rules (they decide the CCTV outcome):
 *  - stanzas of another type are ignored (→ no match when nothing else unwraps);
 *  - a stanza of our type with the wrong argument count, a non-canonical or wrong-length
 *    argument, a body that is not exactly 32 bytes (checked before decrypting: partitioning
 *    oracles), or an all-zero X25519 secret → header failure (abort, not "try the next");
 *  - an AEAD failure of the body → not ours, try the next stanza;
 *  - scrypt: must be the only stanza; work factor `^[1-9][0-9]*$`, at most a bound (default 20).
 *
 * Pitfalls: never reuse a file key; ephemeral secrets are fresh per stanza.
 */
import { KEM_ID, concatBytes, type Backend, type HpkeRecipientKey } from '@nen/core';
import { utf8 } from './bytes.js';
import { scrypt } from '@noble/hashes/scrypt.js';
import { decodeBase64, encodeBase64 } from './encoding.js';
import { headerError, keyError } from './errors.js';
import { XWING_ENC_LENGTH, XWING_SEED_LENGTH, openXWing, sealXWing } from './hpke.js';
import { LowOrderError, X25519 } from './x25519.js';

export const FILE_KEY_LENGTH = 16;
const BODY_LENGTH = 32;
const ZERO_NONCE = new Uint8Array(12);
const EMPTY = new Uint8Array(0);
export const MLKEM768X25519_INFO = utf8('age-encryption.org/mlkem768x25519');
const X25519_INFO = utf8('age-encryption.org/v1/X25519');
const SCRYPT_LABEL = utf8('age-encryption.org/v1/scrypt');

export interface Stanza {
  readonly type: string;
  readonly args: readonly string[];
  readonly body: Uint8Array;
}

export interface Recipient {
  /** Wraps the file key into one or more stanzas. */
  wrap(backend: Backend, fileKey: Uint8Array): Stanza[];
}

export interface Identity {
  /** The file key, or null when no stanza is ours. Throws NEN_SEAL_HEADER on a malformed own stanza. */
  unwrap(backend: Backend, stanzas: readonly Stanza[]): Uint8Array | null;
}

function aeadSeal(b: Backend, key: Uint8Array, pt: Uint8Array): Uint8Array {
  const aead = b.createAead(key);
  try {
    return aead.seal(ZERO_NONCE, EMPTY, pt);
  } finally {
    aead.dispose();
  }
}

/** Opens a 32-byte stanza body into a 16-byte file key; null when the tag does not verify. */
function aeadOpen(b: Backend, key: Uint8Array, body: Uint8Array): Uint8Array | null {
  const aead = b.createAead(key);
  try {
    return aead.open(ZERO_NONCE, EMPTY, body);
  } catch {
    return null;
  } finally {
    aead.dispose();
  }
}

function hkdf(b: Backend, ikm: Uint8Array, salt: Uint8Array, info: Uint8Array): Uint8Array {
  const prk = b.hkdfExtract(salt, ikm);
  try {
    return b.hkdfExpand(prk, info, 32);
  } finally {
    prk.fill(0);
  }
}

/** The canonical-base64 argument `i` of `s`, which must decode to `length` bytes. */
function argBytes(s: Stanza, i: number, length: number, what: string): Uint8Array {
  const v = decodeBase64(s.args[i] ?? '');
  if (!v || v.length !== length) throw headerError(`${s.type} ${what} must be canonical base64 of ${length} bytes`);
  return v;
}

function checkShape(s: Stanza, argCount: number): void {
  if (s.args.length !== argCount) throw headerError(`${s.type} stanza must have ${argCount} arguments`);
  if (s.body.length !== BODY_LENGTH) throw headerError(`${s.type} stanza body must be ${BODY_LENGTH} bytes`);
}

/** Runs `unwrapOne` over the stanzas of `type`: first success wins, AEAD failures are skipped. */
function firstOf(stanzas: readonly Stanza[], type: string, unwrapOne: (s: Stanza) => Uint8Array | null): Uint8Array | null {
  for (const s of stanzas) {
    if (s.type !== type) continue;
    const fileKey = unwrapOne(s);
    if (fileKey) {
      if (fileKey.length !== FILE_KEY_LENGTH) throw headerError('file key must be 16 bytes');
      return fileKey;
    }
  }
  return null;
}

export class XWingRecipient implements Recipient {
  constructor(readonly publicKey: Uint8Array) {}
  wrap(b: Backend, fileKey: Uint8Array): Stanza[] {
    const { enc, ciphertext } = sealXWing(b, this.publicKey, MLKEM768X25519_INFO, fileKey);
    return [{ type: 'mlkem768x25519', args: ['mlkem768x25519', encodeBase64(enc)], body: ciphertext }];
  }
}

/** At most this many backends keep an expanded key per identity (there are three kinds). */
const MAX_KEYS_PER_IDENTITY = 4;

/**
 * An X-Wing identity (32-byte seed). The seed is expanded (SHAKE256, ML-KEM KeyGen, X25519
 * scalar) once per backend, on first use, into that backend's recipient key; dispose() frees them.
 */
export class XWingIdentity implements Identity, Disposable {
  readonly #seed: Uint8Array;
  readonly #keys = new Map<Backend, HpkeRecipientKey>();
  constructor(seed: Uint8Array) {
    if (seed.length !== XWING_SEED_LENGTH) throw keyError('nen: an X-Wing seed is 32 bytes');
    this.#seed = seed.slice();
  }
  /** The backend's recipient key for this seed (expanded once per backend). */
  key(b: Backend): HpkeRecipientKey {
    let k = this.#keys.get(b);
    if (!k) {
      k = b.createRecipientKey(KEM_ID.XWING, this.#seed);
      if (this.#keys.size >= MAX_KEYS_PER_IDENTITY) this.dispose();
      this.#keys.set(b, k);
    }
    return k;
  }
  unwrap(b: Backend, stanzas: readonly Stanza[]): Uint8Array | null {
    return firstOf(stanzas, 'mlkem768x25519', (s) => {
      checkShape(s, 2);
      const enc = argBytes(s, 1, XWING_ENC_LENGTH, 'enc');
      try {
        return openXWing(this.key(b), enc, MLKEM768X25519_INFO, s.body);
      } catch (e) {
        if (e instanceof LowOrderError) throw headerError('mlkem768x25519 X25519 share yields the all-zero secret');
        throw e;
      }
    });
  }
  /** Frees the expanded keys (Wasm memory is zeroized); the identity stays usable. */
  dispose(): void {
    for (const k of this.#keys.values()) k.dispose();
    this.#keys.clear();
  }
  [Symbol.dispose](): void {
    this.dispose();
  }
}

export class X25519Recipient implements Recipient {
  constructor(readonly publicKey: Uint8Array) {}
  wrap(b: Backend, fileKey: Uint8Array): Stanza[] {
    const { share, shared: ss } = X25519.ephemeral(this.publicKey);
    const key = hkdf(b, ss, concatBytes(share, this.publicKey), X25519_INFO);
    ss.fill(0);
    try {
      return [{ type: 'X25519', args: ['X25519', encodeBase64(share)], body: aeadSeal(b, key, fileKey) }];
    } finally {
      key.fill(0);
    }
  }
}

export class X25519Identity implements Identity {
  readonly publicKey: Uint8Array;
  private readonly dh: (publicKey: Uint8Array) => Uint8Array;
  constructor(secretKey: Uint8Array) {
    this.publicKey = X25519.publicKey(secretKey);
    this.dh = X25519.bind(secretKey);
  }
  unwrap(b: Backend, stanzas: readonly Stanza[]): Uint8Array | null {
    return firstOf(stanzas, 'X25519', (s) => {
      checkShape(s, 2);
      const share = argBytes(s, 1, 32, 'share');
      let ss: Uint8Array;
      try {
        ss = this.dh(share);
      } catch (e) {
        if (e instanceof LowOrderError) throw headerError('X25519 share yields the all-zero secret');
        throw e;
      }
      const key = hkdf(b, ss, concatBytes(share, this.publicKey), X25519_INFO);
      ss.fill(0);
      try {
        return aeadOpen(b, key, s.body);
      } finally {
        key.fill(0);
      }
    });
  }
}

function scryptKey(passphrase: string, salt: Uint8Array, logN: number): Uint8Array {
  return scrypt(utf8(passphrase), concatBytes(SCRYPT_LABEL, salt), {
    N: 2 ** logN,
    r: 8,
    p: 1,
    dkLen: 32,
    maxmem: 2 ** (logN + 10) + 4096,
  });
}

export class ScryptRecipient implements Recipient {
  constructor(
    readonly passphrase: string,
    readonly logN = 18,
  ) {}
  wrap(b: Backend, fileKey: Uint8Array): Stanza[] {
    const salt = b.randomBytes(16);
    const key = scryptKey(this.passphrase, salt, this.logN);
    try {
      return [{ type: 'scrypt', args: ['scrypt', encodeBase64(salt), String(this.logN)], body: aeadSeal(b, key, fileKey) }];
    } finally {
      key.fill(0);
    }
  }
}

export class ScryptIdentity implements Identity {
  constructor(
    readonly passphrase: string,
    readonly maxLogN = 20,
  ) {}
  unwrap(b: Backend, stanzas: readonly Stanza[]): Uint8Array | null {
    return firstOf(stanzas, 'scrypt', (s) => {
      if (stanzas.length !== 1) throw headerError('an scrypt stanza must be the only stanza');
      checkShape(s, 3);
      const salt = argBytes(s, 1, 16, 'salt');
      const wf = s.args[2] as string;
      if (!/^[1-9][0-9]*$/.test(wf)) throw headerError('scrypt work factor must be a decimal without leading zeroes');
      const logN = Number(wf);
      if (logN > this.maxLogN || logN > 30) throw headerError(`scrypt work factor ${wf} above the limit ${this.maxLogN}`);
      const key = scryptKey(this.passphrase, salt, logN);
      try {
        return aeadOpen(b, key, s.body);
      } finally {
        key.fill(0);
      }
    });
  }
}
