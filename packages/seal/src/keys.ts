/**
 * Key strings: age Bech32 recipients and identities, and conversion from `nen keygen` output.
 *
 *  - `age1pq1…` (HRP age1pq, 1216-byte X-Wing public key) / `AGE-SECRET-KEY-PQ-1…` (32-byte seed);
 *  - `age1…` (HRP age, X25519 public key) / `AGE-SECRET-KEY-1…` (X25519 scalar);
 *  - Nen: a NEN_SERVER_KEYS entry `kid:base64url(seed)` (X-Wing seeds are 32 bytes: the same
 *    bytes as an age PQ identity), a whole NEN_SERVER_KEYS value (several entries, comma list or
 *    JSON: every key held during a rotation) and a client pin `kid:base64url(publicKey)` (1216
 *    bytes).
 *
 * Pitfalls: ML-KEM-768 Nen keys (64-byte seeds) have no age encoding and are refused; identity
 * files may hold comments (#) and blank lines; a key string never appears in an error message.
 */
import { KEM_ID, fromBase64Url, loadBackend, toBase64Url, type Backend } from '@nen/core';
import { X25519 } from './x25519.js';
import { decodeBech32, encodeBech32 } from './encoding.js';
import { NenSealError, keyError } from './errors.js';
import { XWING_PUBLIC_KEY_LENGTH, XWING_SEED_LENGTH } from './hpke.js';
import { X25519Identity, X25519Recipient, XWingIdentity, XWingRecipient, type Identity, type Recipient } from './recipients.js';

export interface AgeKeyPair {
  /** `AGE-SECRET-KEY-PQ-1…` (secret). */
  readonly identity: string;
  /** `age1pq1…` (public). */
  readonly recipient: string;
}

/** The 1216-byte X-Wing public key of a 32-byte seed (via the Backend: Wasm when available). */
export function xwingPublicKey(backend: Backend, seed: Uint8Array): Uint8Array {
  if (seed.length !== XWING_SEED_LENGTH) throw keyError('nen: an X-Wing seed is 32 bytes');
  const k = backend.createRecipientKey(KEM_ID.XWING, seed);
  try {
    return k.publicKey.slice();
  } finally {
    k.dispose();
  }
}

export function encodeIdentity(seed: Uint8Array): string {
  if (seed.length !== XWING_SEED_LENGTH) throw keyError('nen: an X-Wing seed is 32 bytes');
  return encodeBech32('AGE-SECRET-KEY-PQ-', seed, true);
}

export function encodeRecipient(publicKey: Uint8Array): string {
  if (publicKey.length !== XWING_PUBLIC_KEY_LENGTH) throw keyError('nen: an X-Wing public key is 1216 bytes');
  return encodeBech32('age1pq', publicKey);
}

/** A fresh post-quantum age key pair. */
export async function generateAgeKeyPair(): Promise<AgeKeyPair> {
  const b = await loadBackend('auto');
  const seed = b.randomBytes(XWING_SEED_LENGTH);
  try {
    return { identity: encodeIdentity(seed), recipient: encodeRecipient(xwingPublicKey(b, seed)) };
  } finally {
    seed.fill(0);
  }
}

/** The X-Wing seed inside a Nen server key entry (`kid:base64url-seed`, or a NEN_SERVER_KEYS= line with one entry). */
export function seedFromNenKey(entry: string): Uint8Array | null {
  let v = entry.trim();
  if (v.startsWith('NEN_SERVER_KEYS=')) v = v.slice('NEN_SERVER_KEYS='.length);
  if (v.includes(',')) return null;
  const i = v.indexOf(':');
  if (i <= 0) return null;
  const seed = fromBase64Url(v.slice(i + 1));
  return seed && seed.length === XWING_SEED_LENGTH ? seed : null;
}

/** `nen keygen` server key entry → `AGE-SECRET-KEY-PQ-1…`. */
export function nenKeyToAgeIdentity(entry: string): string {
  const seed = seedFromNenKey(entry);
  if (!seed) throw keyError('nen: not a Nen X-Wing server key (kid:base64url of a 32-byte seed)');
  return encodeIdentity(seed);
}

/** `nen keygen` client pin (`kid:base64url(publicKey)`) → `age1pq1…`. */
export function nenPinToAgeRecipient(pin: string): string {
  const i = pin.indexOf(':');
  const pk = i > 0 ? fromBase64Url(pin.slice(i + 1).trim()) : null;
  if (!pk || pk.length !== XWING_PUBLIC_KEY_LENGTH) throw keyError('nen: not a Nen X-Wing pin (kid:base64url of a 1216-byte public key)');
  return encodeRecipient(pk);
}

/** `AGE-SECRET-KEY-PQ-1…` → a Nen server key entry `kid:base64url-seed`. */
export function ageIdentityToNenKey(identity: string, kid: string): string {
  const d = decodeBech32(identity.trim());
  if (!d || d.hrp !== 'age-secret-key-pq-' || d.bytes.length !== XWING_SEED_LENGTH) throw keyError('nen: not an AGE-SECRET-KEY-PQ-1 identity');
  return `${kid}:${toBase64Url(d.bytes)}`;
}

/** Parses a recipient: `age1pq1…`, `age1…` (X25519) or a Nen pin `kid:base64url(publicKey)`. */
export function parseRecipient(s: string): Recipient {
  const t = s.trim().replace(/^(NEN_SERVER_PIN|NEXT_PUBLIC_NEN_SERVER_KEY)=/, '');
  const d = decodeBech32(t);
  if (d?.hrp === 'age1pq' && d.bytes.length === XWING_PUBLIC_KEY_LENGTH) return new XWingRecipient(d.bytes);
  if (d?.hrp === 'age' && d.bytes.length === 32) return new X25519Recipient(d.bytes);
  const i = t.indexOf(':');
  const pk = i > 0 && !d ? fromBase64Url(t.slice(i + 1)) : null;
  if (pk && pk.length === XWING_PUBLIC_KEY_LENGTH) return new XWingRecipient(pk);
  throw new NenSealError('NEN_SEAL_RECIPIENT', 'nen: unrecognised recipient (expected age1pq1…, age1… or a Nen X-Wing pin kid:base64url)');
}

/** Parses one identity: `AGE-SECRET-KEY-PQ-1…`, `AGE-SECRET-KEY-1…` or a Nen server key entry. */
export function parseIdentity(s: string): Identity {
  const t = s.trim();
  const d = decodeBech32(t);
  if (d?.hrp === 'age-secret-key-pq-' && d.bytes.length === XWING_SEED_LENGTH) return new XWingIdentity(d.bytes);
  if (d?.hrp === 'age-secret-key-' && d.bytes.length === 32) return new X25519Identity(d.bytes);
  const seed = d ? null : seedFromNenKey(t);
  if (seed) return new XWingIdentity(seed);
  throw keyError('nen: unrecognised identity (expected AGE-SECRET-KEY-PQ-1…, AGE-SECRET-KEY-1… or a Nen X-Wing key kid:base64url)');
}

/**
 * The `kid:seed` entries of a NEN_SERVER_KEYS value (PROTOCOL.md §2): a comma list (spaces
 * around an entry ignored, empty entries skipped) or a JSON object `{"kid":"seed",…}`.
 */
function serverKeyEntries(value: string): string[] {
  const v = value.trim().replace(/^'(.*)'$/, '$1');
  if (!v.startsWith('{')) {
    return v
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');
  }
  let o: unknown;
  try {
    o = JSON.parse(v);
  } catch {
    throw keyError('nen: NEN_SERVER_KEYS is not valid JSON');
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw keyError('nen: NEN_SERVER_KEYS JSON must be an object {"kid":"seed",…}');
  return Object.entries(o).map(([kid, seed]) => {
    if (typeof seed !== 'string') throw keyError(`nen: NEN_SERVER_KEYS entry ${kid} is not a string`);
    return `${kid}:${seed}`;
  });
}

/**
 * One identity string, or a whole NEN_SERVER_KEYS value (optionally with its `NEN_SERVER_KEYS=`
 * prefix) holding several X-Wing keys, as during a rotation: one Identity per key.
 */
export function parseIdentities(s: string): Identity[] {
  const t = s.trim().replace(/^NEN_SERVER_KEYS=/, '');
  if (!t.includes(',') && !t.startsWith('{') && !t.startsWith("'")) return [parseIdentity(t)];
  const ids = serverKeyEntries(t).map(parseIdentity);
  if (ids.length === 0) throw keyError('nen: NEN_SERVER_KEYS holds no key');
  return ids;
}

/** Parses an identity file: one identity per line, `#` comments and blank lines ignored; `nen keygen` output accepted. */
export function parseIdentityFile(text: string): Identity[] {
  const out: Identity[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const env = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (env) {
      // `nen keygen` output: the NEN_SERVER_KEYS line holds the keys; the pin / store key lines are skipped.
      if (env[1] === 'NEN_SERVER_KEYS') out.push(...serverKeyEntries(env[2] as string).map(parseIdentity));
      continue;
    }
    out.push(parseIdentity(line));
  }
  if (out.length === 0) throw keyError('nen: the identity file holds no identity');
  return out;
}

/** `age1…` of an X25519 scalar (for tests and tooling). */
export function x25519RecipientOf(secretKey: Uint8Array): string {
  return encodeBech32('age', X25519.publicKey(secretKey));
}
