/**
 * The request side of RFC 9458 §4.3 that needs no primitive: the media types and labels, the
 * 7-byte request header (hdr), the HPKE info (label || 0x00 || hdr) and the choice of a KDF /
 * AEAD pair from a key config. Shared by ./encapsulation.ts, ./chunked.ts and the browser client's
 * ./sender-async.ts, whose static graph (./client-entry.ts) must not reach ./hpke.ts (issue 23).
 *
 * Pitfall: the label bytes are encoded once and shared: callers copy or hash them, never mutate.
 */
import { NenCryptoError } from '../errors.js';
import { utf8 } from '../protocol/bytes.js';
import type { SymmetricSuite, OhttpKeyConfig } from './key-config-codec.js';
import { OHTTP_AEAD_INFO } from './suites.js';

export const OHTTP_MEDIA = {
  REQUEST: 'message/ohttp-req',
  RESPONSE: 'message/ohttp-res',
  CHUNKED_REQUEST: 'message/ohttp-chunked-req',
  CHUNKED_RESPONSE: 'message/ohttp-chunked-res',
  KEYS: 'application/ohttp-keys',
} as const;

export const OHTTP_LABEL = {
  REQUEST: 'message/bhttp request',
  RESPONSE: 'message/bhttp response',
  CHUNKED_REQUEST: 'message/bhttp chunked request',
  CHUNKED_RESPONSE: 'message/bhttp chunked response',
} as const;

/** The 7-byte hdr: key_id (8), kem_id, kdf_id, aead_id (16 each). */
export function requestHeader(keyId: number, kemId: number, kdfId: number, aeadId: number): Uint8Array {
  return Uint8Array.of(keyId, kemId >> 8, kemId & 0xff, kdfId >> 8, kdfId & 0xff, aeadId >> 8, aeadId & 0xff);
}

/** UTF-8 of the fixed labels, encoded once (callers never mutate them: they are only copied / hashed). */
const LABEL_BYTES = new Map<string, Uint8Array>([...Object.values(OHTTP_LABEL), 'key', 'nonce'].map((l) => [l, utf8(l)]));
export function labelBytes(label: string): Uint8Array {
  return LABEL_BYTES.get(label) ?? utf8(label);
}

export function requestInfo(label: string, hdr: Uint8Array): Uint8Array {
  const l = labelBytes(label);
  const info = new Uint8Array(l.length + 1 + hdr.length);
  info.set(l);
  info.set(hdr, l.length + 1);
  return info;
}

/** Picks the suite: the given one if the config offers it, else the config's first supported. */
export function pickSuite(config: OhttpKeyConfig, suite?: SymmetricSuite): SymmetricSuite {
  const ok = (s: SymmetricSuite) => s.kdfId === 0x0001 && OHTTP_AEAD_INFO[s.aeadId] !== undefined;
  const chosen = suite ? config.suites.find((s) => s.kdfId === suite.kdfId && s.aeadId === suite.aeadId) : config.suites.find(ok);
  if (!chosen || !ok(chosen)) throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', 'nen: the key config offers no supported KDF / AEAD pair');
  return chosen;
}
