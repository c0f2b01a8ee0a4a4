/**
 * OHTTP request and response encapsulation (RFC 9458 §4.3, §4.4), both roles.
 *
 * Public API:
 *  - encapsulateRequest(config, bhttpRequest, opts) -> { encapsulatedRequest, openResponse(), enc }
 *    (client; `opts.suite` picks a KDF/AEAD pair from the config, default its first);
 *    encapsulateRequestAsync (./sender-async.ts): the same on WebCrypto where present (browsers), openResponse async;
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
 *  - The client's response exporter secret and the Extract salt's enc part are prepared after the
 *    request's write (./after-io.ts; issue 23, the cold request): they need nothing from the
 *    answer; an answer that comes first (none can before the next poll) prepares them inline.
 *    Same bytes (the salt joined and hashed in the Wasm's HMAC is the same PRK as its SHA-256).
 *  - Error mapping: short / malformed header NEN_OHTTP_MALFORMED, unknown key id
 *    NEN_OHTTP_KEY_UNKNOWN, suite not offered NEN_OHTTP_UNSUPPORTED_SUITE, AEAD failure (tampered,
 *    truncated ciphertext) NEN_OHTTP_DECRYPT.
 */
import { concatBytes } from '../protocol/bytes.js';
import { wireError } from '../protocol/codes.js';
import { randomBytes } from '../backend/random.js';
import { AEAD_TAG, type HpkeContext, OHTTP_AEAD_INFO, OHTTP_KEM_INFO, aeadOpen, aeadSeal, hkdf, isOhttpKem, setupBaseR, setupBaseS } from './hpke.js';
import { OHTTP_LABEL, labelBytes, pickSuite, requestHeader, requestInfo } from './request-header.js';
import type { OhttpGatewayKeys, OhttpKeyConfig, OhttpKeyEntry, SymmetricSuite } from './key-config.js';
import { nodeSha256Of2 } from './node-sha256.js';
import { afterIo } from './after-io.js';

export { OHTTP_LABEL, OHTTP_MEDIA, pickSuite, requestHeader, requestInfo } from './request-header.js';

/** HMAC-SHA256's block: a longer key (here the Extract salt) is hashed first (RFC 2104 §2). */
const HMAC_BLOCK = 64;

/** What a client computed before its answer came (./encapsulation.ts sealRequest). */
export interface ResponseAhead {
  /** Export(context, label, max(Nn, Nk)). */
  readonly exported?: Uint8Array;
  /** enc || response_nonce already joined: the Extract hashes it in the Wasm's HMAC, not in OpenSSL. */
  readonly salt?: Uint8Array;
}

/**
 * §4.4 steps 1-5: the response AEAD key and nonce from the context, enc and response_nonce. The
 * salt enc || response_nonce is longer than HMAC's block for X-Wing / ML-KEM, so on Node.js it
 * goes in as its SHA-256 (./node-sha256.ts: the same PRK, no joined copy) unless the caller hands
 * it joined (`ahead.salt`: a client's one cold answer, where OpenSSL's hash object cost 48-68 µs
 * against 26-38 for the Wasm's HMAC over the joined salt, OHTTP eleventh pass; the gateway's hot
 * path keeps the hash).
 */
export function responseKeys(
  ctx: HpkeContext,
  label: string,
  enc: Uint8Array,
  responseNonce: Uint8Array,
  ahead: ResponseAhead = {},
): { key: Uint8Array; nonce: Uint8Array } {
  const { nk, nn } = OHTTP_AEAD_INFO[ctx.aeadId] as { nk: number; nn: number };
  const secret = ahead.exported ?? ctx.export(labelBytes(label), Math.max(nk, nn));
  const long = !ahead.salt && enc.length + responseNonce.length > HMAC_BLOCK ? nodeSha256Of2(enc, responseNonce) : undefined;
  const prk = hkdf.extract(ahead.salt ?? long ?? concatBytes(enc, responseNonce), secret);
  return { key: hkdf.expand(prk, labelBytes('key'), nk), nonce: hkdf.expand(prk, labelBytes('nonce'), nn) };
}

export function responseNonceLength(aeadId: number): number {
  const a = OHTTP_AEAD_INFO[aeadId] as { nk: number; nn: number };
  return Math.max(a.nk, a.nn);
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
 * Seals `request` under a sender context: hdr || enc || ct, and the response opener (also
 * ./sender-async.ts's fallback). The response's exporter secret (§4.4 step 1: Export(context,
 * "message/bhttp response", max(Nn, Nk))) depends on nothing in the answer, so it is computed
 * after the next I/O poll (./after-io.ts: behind the request's write, while it travels) and the
 * answer's critical path keeps only the Extract, two Expands and the AEAD open.
 */
export function sealRequest(hdr: Uint8Array, suite: SymmetricSuite, sender: { enc: Uint8Array; ctx: HpkeContext }, request: Uint8Array): ClientEncapsulation {
  const { enc, ctx } = sender;
  const ct = ctx.seal(new Uint8Array(0), request);
  const n = responseNonceLength(suite.aeadId);
  let exported: Uint8Array | undefined;
  let salt: Uint8Array | undefined; // enc || response_nonce, the nonce's bytes set per answer
  const prepare = () => {
    exported ??= ctx.export(labelBytes(OHTTP_LABEL.RESPONSE), n);
    if (!salt) {
      salt = new Uint8Array(enc.length + n);
      salt.set(enc);
    }
    return { exported, salt };
  };
  afterIo(prepare);
  return {
    encapsulatedRequest: concatBytes(hdr, enc, ct),
    enc,
    openResponse(encapsulatedResponse: Uint8Array): Uint8Array {
      if (encapsulatedResponse.length < n + AEAD_TAG) throw wireError('NEN_OHTTP_MALFORMED', 'encapsulated response too short');
      const ahead = prepare();
      ahead.salt.set(encapsulatedResponse.subarray(0, n), enc.length);
      const { key, nonce } = responseKeys(ctx, OHTTP_LABEL.RESPONSE, enc, encapsulatedResponse.subarray(0, n), ahead);
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
