/**
 * OHTTP request and response encapsulation (RFC 9458 §4.3, §4.4), both roles.
 *
 * Public API:
 *  - encapsulateRequest(config, bhttpRequest, opts) -> { encapsulatedRequest, openResponse(), enc }
 *    (client; `opts.suite` picks a KDF/AEAD pair from the config, default its first);
 *    encapsulateRequestAsync: the same on WebCrypto where present (browsers), openResponse async;
 *  - decapsulateRequest(keys, encapsulatedRequest) -> { request, enc, keyId, sealResponse() }
 *    (gateway);
 *  - OHTTP_MEDIA: the media types; requestHeader / requestInfo / responseKeys: shared with the
 *    chunked variant (./chunked.ts).
 *
 * Pitfalls:
 *  - info = label || 0x00 || hdr binds key id and all three algorithm ids: a relay that rewrites
 *    the header makes the AEAD fail (NEN_OHTTP_DECRYPT), it cannot downgrade the suite.
 *  - The response key uses a fresh random response_nonce of max(Nn, Nk) bytes and the request's
 *    enc as salt: a response cannot be moved to another request (a swapped response fails).
 *  - `enc` is the replay id (§6.5); the gateway must claim it before running the handler.
 *  - Error mapping: short / malformed header NEN_OHTTP_MALFORMED, unknown key id
 *    NEN_OHTTP_KEY_UNKNOWN, suite not offered NEN_OHTTP_UNSUPPORTED_SUITE, AEAD failure (tampered,
 *    truncated ciphertext) NEN_OHTTP_DECRYPT.
 */
import { NenCryptoError } from '../errors.js';
import { concatBytes, utf8 } from '../protocol/bytes.js';
import { wireError } from '../protocol/codes.js';
import { randomBytes } from '../backend/random.js';
import { AEAD_TAG, type HpkeContext, OHTTP_AEAD_INFO, OHTTP_KEM_INFO, aeadOpen, aeadSeal, hkdf, isOhttpKem, setupBaseR, setupBaseS } from './hpke.js';
import { type AsyncClientEncapsulation, encapsulateOnWebCrypto, setupBaseSAsync } from './sender-async.js';
import type { OhttpGatewayKeys, OhttpKeyConfig, OhttpKeyEntry, SymmetricSuite } from './key-config.js';

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
function labelBytes(label: string): Uint8Array {
  return LABEL_BYTES.get(label) ?? utf8(label);
}

export function requestInfo(label: string, hdr: Uint8Array): Uint8Array {
  const l = labelBytes(label);
  const info = new Uint8Array(l.length + 1 + hdr.length);
  info.set(l);
  info.set(hdr, l.length + 1);
  return info;
}

/** §4.4 steps 1-5: the response AEAD key and nonce from the context, enc and response_nonce. */
export function responseKeys(ctx: HpkeContext, label: string, enc: Uint8Array, responseNonce: Uint8Array): { key: Uint8Array; nonce: Uint8Array } {
  const { nk, nn } = OHTTP_AEAD_INFO[ctx.aeadId] as { nk: number; nn: number };
  const secret = ctx.export(labelBytes(label), Math.max(nk, nn));
  const prk = hkdf.extract(concatBytes(enc, responseNonce), secret);
  return { key: hkdf.expand(prk, labelBytes('key'), nk), nonce: hkdf.expand(prk, labelBytes('nonce'), nn) };
}

export function responseNonceLength(aeadId: number): number {
  const a = OHTTP_AEAD_INFO[aeadId] as { nk: number; nn: number };
  return Math.max(a.nk, a.nn);
}

/** Picks the suite: the given one if the config offers it, else the config's first supported. */
export function pickSuite(config: OhttpKeyConfig, suite?: SymmetricSuite): SymmetricSuite {
  const ok = (s: SymmetricSuite) => s.kdfId === 0x0001 && OHTTP_AEAD_INFO[s.aeadId] !== undefined;
  const chosen = suite ? config.suites.find((s) => s.kdfId === suite.kdfId && s.aeadId === suite.aeadId) : config.suites.find(ok);
  if (!chosen || !ok(chosen)) throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', 'nen: the key config offers no supported KDF / AEAD pair');
  return chosen;
}

export interface EncapsulateOptions {
  readonly suite?: SymmetricSuite;
  /** Derandomized encapsulation, for vectors only (X25519: skE; X-Wing: 64 bytes; ML-KEM: 32). */
  readonly randomness?: Uint8Array;
}

export interface ClientEncapsulation {
  readonly encapsulatedRequest: Uint8Array;
  readonly enc: Uint8Array;
  /** Opens the matching message/ohttp-res body: the binary HTTP response bytes. */
  openResponse(encapsulatedResponse: Uint8Array): Uint8Array;
}

export function encapsulateRequest(config: OhttpKeyConfig, request: Uint8Array, opts: EncapsulateOptions = {}): ClientEncapsulation {
  const suite = pickSuite(config, opts.suite);
  const hdr = requestHeader(config.keyId, config.kemId, suite.kdfId, suite.aeadId);
  const sender = setupBaseS(config.kemId, suite.aeadId, config.publicKey, requestInfo(OHTTP_LABEL.REQUEST, hdr), opts.randomness);
  return sealRequest(hdr, suite, sender, request);
}

/**
 * encapsulateRequest on WebCrypto where the platform has it (browsers; ./sender-async.ts): the
 * KEM, key schedule, AEAD and response opening where it has them all, else the KEM only.
 */
export async function encapsulateRequestAsync(
  config: OhttpKeyConfig,
  request: Uint8Array,
  opts: { readonly suite?: SymmetricSuite } = {},
): Promise<AsyncClientEncapsulation> {
  const suite = pickSuite(config, opts.suite);
  const hdr = requestHeader(config.keyId, config.kemId, suite.kdfId, suite.aeadId);
  const info = requestInfo(OHTTP_LABEL.REQUEST, hdr);
  const native = await encapsulateOnWebCrypto(
    { kem: config.kemId, aeadId: suite.aeadId, publicKey: config.publicKey, hdr, info, responseLabel: labelBytes(OHTTP_LABEL.RESPONSE) },
    request,
  );
  if (native) return native;
  const sync = sealRequest(hdr, suite, await setupBaseSAsync(config.kemId, suite.aeadId, config.publicKey, info), request);
  return { encapsulatedRequest: sync.encapsulatedRequest, enc: sync.enc, openResponse: async (wire) => sync.openResponse(wire) };
}

function sealRequest(hdr: Uint8Array, suite: SymmetricSuite, sender: { enc: Uint8Array; ctx: HpkeContext }, request: Uint8Array): ClientEncapsulation {
  const { enc, ctx } = sender;
  const ct = ctx.seal(new Uint8Array(0), request);
  return {
    encapsulatedRequest: concatBytes(hdr, enc, ct),
    enc,
    openResponse(encapsulatedResponse: Uint8Array): Uint8Array {
      const n = responseNonceLength(suite.aeadId);
      if (encapsulatedResponse.length < n + AEAD_TAG) throw wireError('NEN_OHTTP_MALFORMED', 'encapsulated response too short');
      const { key, nonce } = responseKeys(ctx, OHTTP_LABEL.RESPONSE, enc, encapsulatedResponse.subarray(0, n));
      try {
        return aeadOpen(suite.aeadId, key, nonce, new Uint8Array(0), encapsulatedResponse.subarray(n));
      } catch (e) {
        throw wireError('NEN_OHTTP_DECRYPT', 'encapsulated response failed authentication', e);
      }
    },
  };
}

export interface ParsedRequestHeader {
  readonly hdr: Uint8Array;
  readonly keyId: number;
  readonly entry: OhttpKeyEntry;
  readonly aeadId: number;
  readonly enc: Uint8Array;
  /** Bytes consumed: 7 + Nenc. */
  readonly length: number;
}

/**
 * §4.3 decapsulation steps 1, 1a, 1b: the header and enc; null when `bytes` is still too short to
 * tell (a streaming caller waits for more). Unknown key / KEM / suite throw.
 */
export function parseRequestHeader(keys: OhttpGatewayKeys, bytes: Uint8Array): ParsedRequestHeader | null {
  if (bytes.length < 7) return null;
  const keyId = bytes[0] as number;
  const kemId = ((bytes[1] as number) << 8) | (bytes[2] as number);
  const kdfId = ((bytes[3] as number) << 8) | (bytes[4] as number);
  const aeadId = ((bytes[5] as number) << 8) | (bytes[6] as number);
  const entry = keys.select(keyId, kemId, kdfId, aeadId);
  if (!isOhttpKem(kemId)) throw wireError('NEN_OHTTP_KEY_UNKNOWN', `KEM ${kemId}`);
  const length = 7 + OHTTP_KEM_INFO[kemId].enc;
  if (bytes.length < length) return null;
  return { hdr: bytes.slice(0, 7), keyId, entry, aeadId, enc: bytes.slice(7, length), length };
}

/** SetupBaseR for a parsed header; a bad X25519 share is a decryption failure, not a crash. */
export function openContext(h: ParsedRequestHeader, label: string): HpkeContext {
  try {
    return setupBaseR(h.entry.key, h.aeadId, h.enc, requestInfo(label, h.hdr));
  } catch (e) {
    throw wireError('NEN_OHTTP_DECRYPT', 'encapsulated key rejected', e);
  }
}

export interface GatewayDecapsulation {
  readonly request: Uint8Array;
  /** The encapsulated key: the replay id (RFC 9458 §6.5). */
  readonly enc: Uint8Array;
  readonly keyId: number;
  /**
   * Encapsulates a binary HTTP response for this request: a fresh random response_nonce each
   * call; `responseNonce` is for vectors only (RFC 9458 Appendix A).
   */
  sealResponse(response: Uint8Array, responseNonce?: Uint8Array): Uint8Array;
}

export function decapsulateRequest(keys: OhttpGatewayKeys, encapsulatedRequest: Uint8Array): GatewayDecapsulation {
  const h = parseRequestHeader(keys, encapsulatedRequest);
  if (!h || encapsulatedRequest.length < h.length + AEAD_TAG) throw wireError('NEN_OHTTP_MALFORMED', 'encapsulated request too short');
  const ctx = openContext(h, OHTTP_LABEL.REQUEST);
  let request: Uint8Array;
  try {
    request = ctx.open(new Uint8Array(0), encapsulatedRequest.subarray(h.length));
  } catch (e) {
    throw wireError('NEN_OHTTP_DECRYPT', 'encapsulated request failed authentication', e);
  }
  return {
    request,
    enc: h.enc,
    keyId: h.keyId,
    sealResponse(response: Uint8Array, responseNonce?: Uint8Array): Uint8Array {
      const n = responseNonce ?? randomBytes(responseNonceLength(h.aeadId));
      return sealResponseWithNonce(ctx, h.enc, n, response);
    },
  };
}

/** §4.4 with a caller-given response_nonce (vectors); production uses sealResponse(). */
export function sealResponseWithNonce(ctx: HpkeContext, enc: Uint8Array, responseNonce: Uint8Array, response: Uint8Array): Uint8Array {
  const { key, nonce } = responseKeys(ctx, OHTTP_LABEL.RESPONSE, enc, responseNonce);
  return concatBytes(responseNonce, aeadSeal(ctx.aeadId, key, nonce, new Uint8Array(0), response));
}
