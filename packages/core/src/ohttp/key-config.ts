/**
 * OHTTP key configurations (RFC 9458 §3): one config and the `application/ohttp-keys` list
 * (§3.2: each config prefixed with its 2-byte length), and the gateway's key set.
 *
 * Public API:
 *  - encodeKeyConfig / parseKeyConfig: one Key Config;
 *  - encodeKeyConfigs / parseKeyConfigs: the application/ohttp-keys body (unknown KEMs skipped);
 *  - OhttpGatewayKeys: the gateway's private keys by key id (several live during a rotation);
 *  - formatOhttpKey / parseOhttpKey: the `keyId:kem:base64url(sk)` string form the NEN_OHTTP_KEYS
 *    variable holds (comma-separated for rotation; the first is the current one).
 *
 * Pitfalls:
 *  - Key ids are 8 bits: 0..255, unique within a gateway's set.
 *  - A config offers KDF / AEAD pairs; Nen offers HKDF-SHA256 with ChaCha20-Poly1305 and
 *    AES-128-GCM. A client picks one pair it supports; the gateway refuses pairs it did not offer.
 *  - X25519 (0x0020) is not post-quantum: `pq` says so, clients that require PQ must refuse it.
 *  - OHTTP keys are separate from the session keys (RFC 9458 §6.4): never reuse one for both.
 */
import { fromBase64Url, toBase64Url } from '../protocol/bytes.js';
import { wireError } from '../protocol/codes.js';
import { OHTTP_KEM, OHTTP_KEM_INFO, OhttpPrivateKey, generateOhttpPrivateKey, type OhttpKemId } from './hpke.js';
import { DEFAULT_SUITES, type OhttpKeyConfig, type SymmetricSuite, badConfig } from './key-config-codec.js';

export { DEFAULT_SUITES, encodeKeyConfig, encodeKeyConfigs, parseKeyConfig, parseKeyConfigs } from './key-config-codec.js';
export type { OhttpKeyConfig, SymmetricSuite } from './key-config-codec.js';

const KEM_NAMES: Record<string, OhttpKemId> = { xwing: OHTTP_KEM.XWING, mlkem768: OHTTP_KEM.MLKEM768, x25519: OHTTP_KEM.X25519 };

export interface OhttpKeyEntry {
  readonly keyId: number;
  readonly key: OhttpPrivateKey;
  readonly suites: readonly SymmetricSuite[];
}

/** `keyId:kem:base64url(sk)`, kem one of xwing, mlkem768, x25519. */
export function formatOhttpKey(keyId: number, kemId: OhttpKemId, sk: Uint8Array): string {
  const name = Object.keys(KEM_NAMES).find((k) => KEM_NAMES[k] === kemId);
  return `${keyId}:${name}:${toBase64Url(sk)}`;
}

export function parseOhttpKey(s: string): { keyId: number; kemId: OhttpKemId; sk: Uint8Array } {
  const m = /^(\d{1,3}):([a-z0-9]+):([A-Za-z0-9_-]+)$/.exec(s.trim());
  const keyId = m ? Number(m[1]) : -1;
  const kemId = m ? KEM_NAMES[m[2] as string] : undefined;
  const sk = m ? fromBase64Url(m[3] as string) : null;
  if (!m || keyId > 255 || kemId === undefined || !sk || sk.length !== OHTTP_KEM_INFO[kemId].privateKey) {
    throw badConfig('an OHTTP key must read keyId:xwing|mlkem768|x25519:base64url(private key)');
  }
  return { keyId, kemId, sk };
}

/** A fresh key string for `nen keygen --ohttp`. */
export function generateOhttpKey(keyId: number, kemId: OhttpKemId = OHTTP_KEM.XWING): string {
  return formatOhttpKey(keyId, kemId, generateOhttpPrivateKey(kemId));
}

/** The gateway's private keys by key id; the first is the current one (rotation order). */
export class OhttpGatewayKeys {
  readonly #byId = new Map<number, OhttpKeyEntry>();
  readonly entries: readonly OhttpKeyEntry[];
  constructor(entries: readonly OhttpKeyEntry[]) {
    if (entries.length === 0) throw badConfig('no OHTTP key');
    for (const e of entries) {
      if (this.#byId.has(e.keyId)) throw badConfig(`duplicate key id ${e.keyId}`);
      this.#byId.set(e.keyId, e);
    }
    this.entries = entries;
  }
  /** From NEN_OHTTP_KEYS-style text: comma- or newline-separated key strings. */
  static parse(text: string, suites: readonly SymmetricSuite[] = DEFAULT_SUITES): OhttpGatewayKeys {
    const items = text
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    return new OhttpGatewayKeys(
      items.map((s) => {
        const { keyId, kemId, sk } = parseOhttpKey(s);
        return { keyId, key: new OhttpPrivateKey(kemId, sk), suites };
      }),
    );
  }
  /** The public key configs (application/ohttp-keys order = rotation order). */
  configs(): OhttpKeyConfig[] {
    return this.entries.map((e) => ({ keyId: e.keyId, kemId: e.key.kem, publicKey: e.key.publicKey, suites: e.suites }));
  }
  /** RFC 9458 §4.3 step 1a/1b: the key for key_id if its KEM and the suite match, else a typed error. */
  select(keyId: number, kemId: number, kdfId: number, aeadId: number): OhttpKeyEntry {
    const e = this.#byId.get(keyId);
    if (!e || e.key.kem !== kemId) throw wireError('NEN_OHTTP_KEY_UNKNOWN', `key id ${keyId} / KEM ${kemId} not configured`);
    if (!e.suites.some((s) => s.kdfId === kdfId && s.aeadId === aeadId)) {
      throw wireError('NEN_OHTTP_UNSUPPORTED_SUITE', `KDF ${kdfId} / AEAD ${aeadId} not offered for key ${keyId}`);
    }
    return e;
  }
  dispose(): void {
    for (const e of this.entries) e.key.dispose();
  }
}
