/**
 * The one backend interface every crypto implementation provides (Wasm, @noble, node:crypto).
 *
 * Implements the primitives the Nen protocol is built from:
 *  - HPKE (RFC 9180) base mode, suite = (KEM, HKDF-SHA256 0x0001, ChaCha20-Poly1305 0x0003),
 *    through the secret export interface (RFC 9180 §5.3: the Nen protocol) and single-shot
 *    SealBase / OpenBase (RFC 9180 §6.1: sealed data, e.g. the age `mlkem768x25519` stanza);
 *  - KEMs: X-Wing (MLKEM768-X25519, HPKE KEM id 0x647a, draft-ietf-hpke-pq) and
 *    ML-KEM-768 (FIPS 203, HPKE KEM id 0x0041);
 *  - HKDF-SHA256 (RFC 5869), SHA-256, HMAC-SHA256;
 *  - ChaCha20-Poly1305 (RFC 8439) with caller-given nonces.
 *
 * Pitfalls:
 *  - All backends must be byte-identical; cross-tests on random inputs prove it.
 *  - A nonce must never repeat under a key: callers derive nonces from counters, never at random.
 *  - Decapsulation never fails on a wrong ciphertext (implicit rejection): authenticity comes from
 *    the transcript and key confirmation above this layer.
 *  - Objects holding secrets (Aead, HpkeRecipientKey) must be disposed; Wasm ones zeroize on free.
 *    HpkeSenderKey holds only a public key, but in Wasm memory: dispose it too.
 *  - Single-shot SealBase uses sequence number 0 only (nonce = base_nonce): one message per enc.
 */

/** HPKE KEM identifiers supported by Nen. */
export const KEM_ID = {
  /** X-Wing: MLKEM768-X25519 hybrid (draft-ietf-hpke-pq). Default. */
  XWING: 0x647a,
  /** ML-KEM-768 (FIPS 203). */
  MLKEM768: 0x0041,
} as const;
export type KemId = (typeof KEM_ID)[keyof typeof KEM_ID];

/** Sizes (bytes) per KEM: Npk, Nsk (HPKE serialized private key = seed), Nenc. */
export const KEM_SIZES: Record<KemId, { publicKey: number; privateKey: number; enc: number }> = {
  [KEM_ID.XWING]: { publicKey: 1216, privateKey: 32, enc: 1120 },
  [KEM_ID.MLKEM768]: { publicKey: 1184, privateKey: 64, enc: 1088 },
};

/** ChaCha20-Poly1305 sizes (RFC 8439). */
export const AEAD_KEY_LENGTH = 32;
export const AEAD_NONCE_LENGTH = 12;
export const AEAD_TAG_LENGTH = 16;

export interface KemKeyPair {
  readonly kem: KemId;
  readonly publicKey: Uint8Array;
  /** HPKE SerializePrivateKey form (the seed). Secret. */
  readonly privateKey: Uint8Array;
}

/**
 * A ChaCha20-Poly1305 key held by the backend (in Wasm memory for the Wasm backend). `seal` and
 * `open` are synchronous and keep no reference to their arguments once they return: stream
 * records reuse one nonce and one AAD buffer per stream (protocol/message.ts RecordNonceAad).
 */
export interface Aead extends Disposable {
  /** Returns ciphertext || 16-byte tag. */
  seal(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array;
  /**
   * Optional: `seal` as arrays whose concatenation is its result, for a caller that writes them
   * in order (node:crypto: ciphertext and tag of a large message without a body-sized join).
   */
  sealChunks?(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array[];
  /** Throws NenCryptoError('NEN_CRYPTO_AEAD') when the tag does not verify. */
  open(nonce: Uint8Array, aad: Uint8Array, ciphertextAndTag: Uint8Array): Uint8Array;
  /**
   * Optional: `seal` / `open` on the platform's native AEAD (browsers' WebCrypto), same bytes and
   * errors; single sealed messages use them where present, stream records the sync methods. The
   * inputs are consumed (copied) before the call returns, like the sync methods'.
   */
  sealAsync?(nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Promise<Uint8Array>;
  openAsync?(nonce: Uint8Array, aad: Uint8Array, ciphertextAndTag: Uint8Array): Promise<Uint8Array>;
  dispose(): void;
}

/** An HPKE recipient private key held by the backend (server static key, client ephemeral key). */
export interface HpkeRecipientKey extends Disposable {
  readonly kem: KemId;
  readonly publicKey: Uint8Array;
  /** SetupBaseR(enc, skR, info) then Export(exporterContext, length). */
  setupBaseRExport(enc: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): Uint8Array;
  /**
   * Single-shot OpenBase(enc, skR, info, aad, ciphertext) (RFC 9180 §6.1). Throws
   * NenCryptoError('NEN_CRYPTO_AEAD') when the tag does not verify (a wrong enc shows up here:
   * decapsulation never fails), NEN_CRYPTO_KEY on an X-Wing low-order X25519 share.
   */
  openBase(enc: Uint8Array, info: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array): Uint8Array;
  dispose(): void;
}

/** The result of a single-shot SealBase: the KEM encapsulation and ciphertext || tag. */
export interface HpkeSealed {
  readonly enc: Uint8Array;
  readonly ciphertext: Uint8Array;
}

/** An HPKE recipient public key validated and parsed once, for repeated SealBase to it. */
export interface HpkeSenderKey extends Disposable {
  readonly kem: KemId;
  readonly publicKey: Uint8Array;
  /** SealBase(pkR, info, aad, plaintext) with a fresh encapsulation per call (RFC 9180 §6.1). */
  sealBase(info: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): HpkeSealed;
  dispose(): void;
}

export interface HpkeSenderExport {
  /** The KEM encapsulation (HPKE `enc`). */
  readonly enc: Uint8Array;
  /** Export(exporterContext, length) of the sender context. Secret. */
  readonly exported: Uint8Array;
}

/** An HPKE recipient key whose decapsulation runs asynchronously (the platform's WebCrypto). */
export interface AsyncRecipientKey extends Disposable {
  readonly kem: KemId;
  readonly publicKey: Uint8Array;
  /** SetupBaseR(enc, skR, info) then Export(exporterContext, length); same bytes as the sync form. */
  setupBaseRExport(enc: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): Promise<Uint8Array>;
  dispose(): void;
}

/** SetupBaseS + Export whose export is computed after `enc` is known (in a later task). */
export interface AsyncSenderExport {
  /** The KEM encapsulation (HPKE `enc`). */
  readonly enc: Uint8Array;
  /** Export(exporterContext, length) of the sender context. Secret: the caller wipes it. */
  readonly exported: Promise<Uint8Array>;
}

/**
 * The client handshake's KEM operations asynchronously, on native code where the platform has it
 * (browsers: WebCrypto ML-KEM-768 and X25519). Same inputs, errors and bytes as the sync methods.
 */
export interface AsyncKem {
  createRecipientKey(kem: KemId, privateKey: Uint8Array): Promise<AsyncRecipientKey>;
  /**
   * SetupBaseS(pkR, info) then Export. Resolves once `enc` is known; the X-Wing combiner and the
   * key schedule (only the export needs them) run in a later task, e.g. during the round trip of
   * the message that carries `enc`.
   */
  setupBaseSExport(kem: KemId, publicKey: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): Promise<AsyncSenderExport>;
}

/** HMAC-SHA256, SHA-256 and HKDF-SHA256 as the Backend's, asynchronous (./webcrypto-symmetric.ts). */
export interface AsyncSymmetricMethods {
  hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Uint8Array>;
  sha256(data: Uint8Array): Promise<Uint8Array>;
  hkdfExtract(salt: Uint8Array, ikm: Uint8Array): Promise<Uint8Array>;
  hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array>;
}

export interface Backend {
  readonly name: 'wasm' | 'noble' | 'node';
  /** Where present, the client handshake uses it (clientHandshakeStartAsync). */
  readonly asyncKem?: AsyncKem;
  /**
   * Where present (browsers: WebCrypto), the client handshake's key schedule, S_0 / confirm and
   * the epoch keys run on it: the same values as the sync methods, asynchronously.
   */
  readonly asyncSymmetric?: AsyncSymmetricMethods;
  randomBytes(length: number): Uint8Array;
  sha256(data: Uint8Array): Uint8Array;
  hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array;
  hkdfExtract(salt: Uint8Array, ikm: Uint8Array): Uint8Array;
  hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number): Uint8Array;
  /** A ChaCha20-Poly1305 key object; the key bytes are copied, the caller may wipe its copy. */
  createAead(key: Uint8Array): Aead;
  /** HPKE GenerateKeyPair() for the KEM. */
  generateKeyPair(kem: KemId): KemKeyPair;
  /** HPKE DeriveKeyPair(ikm) for the KEM. */
  deriveKeyPair(kem: KemId, ikm: Uint8Array): KemKeyPair;
  /** Loads an HPKE private key (seed form) as a recipient key; validates its length. */
  createRecipientKey(kem: KemId, privateKey: Uint8Array): HpkeRecipientKey;
  /** SetupBaseS(pkR, info) then Export(exporterContext, length). Validates pkR. */
  setupBaseSExport(kem: KemId, publicKey: Uint8Array, info: Uint8Array, exporterContext: Uint8Array, length: number): HpkeSenderExport;
  /** Single-shot SealBase(pkR, info, aad, plaintext) (RFC 9180 §6.1). Validates pkR (NEN_CRYPTO_KEY / _LENGTH). */
  sealBase(kem: KemId, publicKey: Uint8Array, info: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): HpkeSealed;
  /** Validates and parses pkR once for many sealBase calls to the same recipient. */
  createSenderKey(kem: KemId, publicKey: Uint8Array): HpkeSenderKey;
}
