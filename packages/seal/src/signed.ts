/**
 * Signed seals: an ML-DSA-65 (FIPS 204) signature over the whole sealed file, checked against
 * the sender's pinned public key before anything is decrypted.
 *
 * The signature is detached (the file stays a plain age file any age tool opens) and uses
 * HashML-DSA-65 with SHA-512 (FIPS 204 §5.4) and the context "nen-seal/signed-file/v1", over
 * the file bytes exactly as stored (binary or armored).
 *
 * Why the whole file and not the header: every recipient knows the file key, so a recipient
 * could put a payload of its own under a signed header; a signature over all bytes cannot be
 * reused for another payload.
 *
 * Pitfalls: the signature authenticates the sender of the file, not the time or the intended
 * recipient set beyond what the header says; the file is held in memory to be signed.
 */
import { sha512 } from '@noble/hashes/sha2.js';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { open, seal, type IdentityInput, type OpenOptions, type RecipientInput, type SealOptions } from './age.js';
import { utf8 } from './bytes.js';
import { NenSealError } from './errors.js';

const CONTEXT = utf8('nen-seal/signed-file/v1');
const signer = ml_dsa65.prehash(sha512);
export const MLDSA65_PUBLIC_KEY_LENGTH = 1952;
export const MLDSA65_SIGNATURE_LENGTH = 3309;

export interface SignedSeal {
  /** The age file (binary, or armored text bytes). */
  readonly file: Uint8Array;
  /** Detached HashML-DSA-65 signature over `file`. */
  readonly signature: Uint8Array;
}

/** A fresh ML-DSA-65 signing key pair (publish / pin the public key). */
export function generateSigningKey(): { publicKey: Uint8Array; secretKey: Uint8Array } {
  return ml_dsa65.keygen(crypto.getRandomValues(new Uint8Array(32)));
}

export function signSealed(file: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return signer.sign(file, secretKey, { context: CONTEXT });
}

/** Throws NEN_SEAL_SIGNATURE unless `signature` is valid for `file` under the pinned key. */
export function verifySealed(file: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): void {
  let ok = false;
  if (publicKey.length === MLDSA65_PUBLIC_KEY_LENGTH && signature.length === MLDSA65_SIGNATURE_LENGTH) {
    try {
      ok = signer.verify(signature, file, publicKey, { context: CONTEXT });
    } catch {
      ok = false;
    }
  }
  if (!ok) throw new NenSealError('NEN_SEAL_SIGNATURE', 'nen: the sealed file is not signed by the pinned sender key');
}

/** seal() then sign the resulting file. */
export async function sealSigned(
  data: Uint8Array | string,
  recipients: RecipientInput | readonly RecipientInput[],
  secretKey: Uint8Array,
  opts: SealOptions = {},
): Promise<SignedSeal> {
  const file = await seal(data, recipients, opts);
  return { file, signature: signSealed(file, secretKey) };
}

/** Verifies the signature against the pinned sender key first, then opens. */
export async function openSigned(
  sealed: SignedSeal,
  identities: IdentityInput | readonly IdentityInput[],
  senderPublicKey: Uint8Array,
  opts: OpenOptions = {},
): Promise<Uint8Array> {
  verifySealed(sealed.file, sealed.signature, senderPublicKey);
  return open(sealed.file, identities, opts);
}
