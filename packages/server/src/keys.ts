/**
 * Server static KEM keys (THREAT_MODEL.md property 3): parsing NEN_SERVER_KEYS and generating keys for the
 * `nen keygen` CLI. A key is the HPKE serialized private key (RFC 9180 §7.1.2), i.e. the seed:
 * 32 bytes for X-Wing (draft-ietf-hpke-pq), 64 bytes (d || z) for ML-KEM-768 (FIPS 203); the
 * KEM follows from the length. Several keys can be live at once (rotation): clients name the one
 * they pinned by key id.
 *
 * Accepted formats: `kid:base64url-seed[,kid2:base64url-seed]` or JSON
 * `{"kid":"base64url-seed",...}`.
 *
 * Pitfalls: seeds are secrets: they never appear in logs or errors, and the parsed copies are wiped
 * once loaded into backend recipient keys.
 */
import type { Backend, HpkeRecipientKey, KemId } from '@nen/core';
import { NenConfigError } from './errors.js';
import { KEM_ID, KEM_SIZES, KEY_ID_PATTERN, formatServerKeyPin, fromBase64Url, kemName, toBase64Url } from '@nen/core';

export interface ServerKeySpec {
  readonly kid: string;
  readonly kem: KemId;
  /** Seed (secret). */
  readonly privateKey: Uint8Array;
}

export { NenConfigError } from './errors.js';

function kemForSeedLength(n: number): KemId | null {
  if (n === KEM_SIZES[KEM_ID.XWING].privateKey) return KEM_ID.XWING;
  if (n === KEM_SIZES[KEM_ID.MLKEM768].privateKey) return KEM_ID.MLKEM768;
  return null;
}

export function parseServerKeys(value: string): ServerKeySpec[] {
  const v = value.trim();
  let pairs: [string, string][];
  if (v.startsWith('{')) {
    let obj: unknown;
    try {
      obj = JSON.parse(v);
    } catch {
      throw new NenConfigError('NEN_SERVER_KEYS is not valid JSON');
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new NenConfigError('NEN_SERVER_KEYS JSON must be an object {kid: seed}');
    pairs = Object.entries(obj as Record<string, unknown>).map(([k, s]) => {
      if (typeof s !== 'string') throw new NenConfigError(`NEN_SERVER_KEYS: key ${k} must be a base64url string`);
      return [k, s];
    });
  } else {
    pairs = v
      .split(',')
      .filter((p) => p.trim() !== '')
      .map((p) => {
        const i = p.indexOf(':');
        if (i < 0) throw new NenConfigError('NEN_SERVER_KEYS entries must look like kid:base64url-seed');
        return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
      });
  }
  if (pairs.length === 0) throw new NenConfigError('NEN_SERVER_KEYS holds no key');
  const seen = new Set<string>();
  return pairs.map(([kid, s]) => {
    if (!KEY_ID_PATTERN.test(kid)) throw new NenConfigError(`NEN_SERVER_KEYS: invalid key id ${JSON.stringify(kid.slice(0, 40))} (1-32 of A-Z a-z 0-9 _ -)`);
    if (seen.has(kid)) throw new NenConfigError(`NEN_SERVER_KEYS: duplicate key id ${kid}`);
    seen.add(kid);
    const seed = fromBase64Url(s);
    const kem = seed ? kemForSeedLength(seed.length) : null;
    if (!seed || kem === null) throw new NenConfigError(`NEN_SERVER_KEYS: key ${kid} is not a base64url 32-byte (X-Wing) or 64-byte (ML-KEM-768) seed`);
    return { kid, kem, privateKey: seed };
  });
}

export interface LoadedServerKey {
  readonly kid: string;
  readonly kem: KemId;
  readonly publicKey: Uint8Array;
  readonly recipient: HpkeRecipientKey;
  /** The client pin: "kid:base64url(publicKey)". */
  readonly pin: string;
}

export function loadServerKeys(backend: Backend, specs: readonly ServerKeySpec[]): LoadedServerKey[] {
  return specs.map((s) => {
    const recipient = backend.createRecipientKey(s.kem, s.privateKey);
    return { kid: s.kid, kem: s.kem, publicKey: recipient.publicKey, recipient, pin: formatServerKeyPin(s.kid, recipient.publicKey) };
  });
}

/** A new key for the CLI: the env entry and the pin. */
export function generateServerKey(backend: Backend, kem: KemId, kid: string): { env: string; pin: string; kem: string } {
  const kp = backend.generateKeyPair(kem);
  const env = `${kid}:${toBase64Url(kp.privateKey)}`;
  kp.privateKey.fill(0);
  return { env, pin: formatServerKeyPin(kid, kp.publicKey), kem: kemName(kem) };
}
