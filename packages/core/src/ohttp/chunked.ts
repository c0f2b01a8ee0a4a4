/**
 * Chunked OHTTP (draft-ietf-ohai-chunked-ohttp): requests and responses as a sequence of
 * AEAD-protected chunks, each prefixed by a varint length; the final chunk has length 0, its
 * AAD is "final" and it extends to the end of the stream.
 *
 * Public API:
 *  - encapsulateChunkedRequest(config, opts) -> { header, sealChunk(pt, final), responseOpener() }
 *    (client; encapsulateChunkedRequestAsync: the KEM on WebCrypto where present);
 *  - ChunkedRequestOpener(keys, limits): push(bytes) -> plaintext chunks, end() -> the final
 *    chunk; then responseSealer() (gateway);
 *  - ChunkedResponseSealer: start() -> response_nonce, sealChunk(pt, final);
 *  - ChunkedResponseOpener: push(bytes) -> plaintext chunks, end() -> the final chunk (client).
 *
 * Pitfalls:
 *  - Truncation: a stream that ends without its final chunk (length-0 indicator and a chunk whose
 *    AAD is "final") is NEN_OHTTP_TRUNCATED; a chunk cut short is too. Chunk order is bound by
 *    the sequence number (request: the HPKE context; response: nonce XOR counter).
 *  - A non-final chunk with an empty plaintext is treated as a decryption error (the draft).
 *  - Bounds: every chunk, and the final chunk the opener must buffer until the stream ends, is at
 *    most `maxChunk` bytes of ciphertext (default 64 KiB + tag; the draft requires 16 KiB).
 *  - The length prefixes are not authenticated: any varint form of the same length is accepted.
 */
import { concatBytes, utf8 } from '../protocol/bytes.js';
import { wireError } from '../protocol/codes.js';
import { randomBytes } from '../backend/random.js';
import { AEAD_TAG, type HpkeContext, aeadOpen, aeadSeal, setupBaseS, xorNonce } from './hpke.js';
import type { OhttpGatewayKeys, OhttpKeyConfig, SymmetricSuite } from './key-config.js';
import { setupBaseSAsync } from './setup-async.js';
import {
  OHTTP_LABEL,
  type EncapsulateOptions,
  type ParsedRequestHeader,
  openContext,
  parseRequestHeader,
  pickSuite,
  requestHeader,
  requestInfo,
  responseKeys,
  responseNonceLength,
} from './encapsulation.js';
import { decodeVarint, encodeVarint } from './varint.js';

const FINAL = utf8('final');
const EMPTY = new Uint8Array(0);
export const DEFAULT_MAX_CHUNK = 65536 + AEAD_TAG;

function frame(sealed: Uint8Array, final: boolean): Uint8Array {
  return concatBytes(encodeVarint(final ? 0 : sealed.length), sealed);
}

/**
 * Splits a byte stream into chunk ciphertexts. Input pieces are queued and joined only once a
 * whole chunk is there (linear in the input however it is split: a peer sending one byte at a
 * time cannot make the gateway copy quadratically). The final chunk is returned only by end().
 */
class ChunkFramer {
  #parts: Uint8Array[] = [];
  #size = 0;
  #final = false;
  readonly #max: number;
  constructor(max: number) {
    this.#max = max;
  }
  /** Removes and returns the first n queued bytes (n <= size). */
  #take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let o = 0;
    while (o < n) {
      const p = this.#parts[0] as Uint8Array;
      const k = Math.min(p.length, n - o);
      out.set(p.subarray(0, k), o);
      o += k;
      if (k === p.length) this.#parts.shift();
      else this.#parts[0] = p.subarray(k);
    }
    this.#size -= n;
    return out;
  }
  #peekLength(): [number, number] | null {
    const head = new Uint8Array(Math.min(8, this.#size));
    let o = 0;
    for (const p of this.#parts) {
      if (o >= head.length) break;
      const k = Math.min(p.length, head.length - o);
      head.set(p.subarray(0, k), o);
      o += k;
    }
    try {
      return decodeVarint(head, 0);
    } catch {
      throw wireError('NEN_OHTTP_MALFORMED', 'chunk length out of range');
    }
  }
  push(bytes: Uint8Array): Uint8Array[] {
    if (bytes.length > 0) {
      this.#parts.push(bytes.slice());
      this.#size += bytes.length;
    }
    const out: Uint8Array[] = [];
    while (!this.#final) {
      const r = this.#peekLength();
      if (!r) break;
      const [len, n] = r;
      if (len === 0) {
        this.#final = true;
        this.#take(n);
        break;
      }
      if (len > this.#max) throw wireError('NEN_TOO_LARGE', 'OHTTP chunk over its limit');
      if (this.#size < n + len) break;
      this.#take(n);
      out.push(this.#take(len));
    }
    if (this.#final && this.#size > this.#max) throw wireError('NEN_TOO_LARGE', 'OHTTP final chunk over its limit');
    return out;
  }
  end(): Uint8Array {
    if (!this.#final) throw wireError('NEN_OHTTP_TRUNCATED', 'the chunked message ended before its final chunk');
    return this.#take(this.#size);
  }
}

function openOrFail(f: () => Uint8Array, final: boolean): Uint8Array {
  let pt: Uint8Array;
  try {
    pt = f();
  } catch (e) {
    throw wireError('NEN_OHTTP_DECRYPT', 'an OHTTP chunk failed authentication', e);
  }
  if (!final && pt.length === 0) throw wireError('NEN_OHTTP_DECRYPT', 'an empty non-final OHTTP chunk');
  return pt;
}

/** Gateway side of a chunked response (the same AEAD key and nonce for every chunk, nonce XOR counter). */
export class ChunkedResponseSealer {
  readonly #aeadId: number;
  readonly #key: Uint8Array;
  readonly #nonce: Uint8Array;
  readonly #responseNonce: Uint8Array;
  #counter = 0;
  #done = false;
  constructor(ctx: HpkeContext, enc: Uint8Array, responseNonce?: Uint8Array) {
    this.#aeadId = ctx.aeadId;
    this.#responseNonce = responseNonce ?? randomBytes(responseNonceLength(ctx.aeadId));
    const k = responseKeys(ctx, OHTTP_LABEL.CHUNKED_RESPONSE, enc, this.#responseNonce);
    this.#key = k.key;
    this.#nonce = k.nonce;
  }
  /** The first bytes of the response body: response_nonce. */
  start(): Uint8Array {
    return this.#responseNonce.slice();
  }
  /** One framed chunk; a non-final chunk must not be empty (empty input returns no bytes). */
  sealChunk(pt: Uint8Array, final = false): Uint8Array {
    if (this.#done) throw wireError('NEN_OHTTP_MALFORMED', 'chunk after the final chunk');
    if (!final && pt.length === 0) return EMPTY;
    this.#done = final;
    const sealed = aeadSeal(this.#aeadId, this.#key, xorNonce(this.#nonce, this.#counter++), final ? FINAL : EMPTY, pt);
    return frame(sealed, final);
  }
}

/** Client side of a chunked response. */
export class ChunkedResponseOpener {
  readonly #ctx: HpkeContext;
  readonly #enc: Uint8Array;
  readonly #framer: ChunkFramer;
  #pending: Uint8Array = EMPTY;
  #keys: { key: Uint8Array; nonce: Uint8Array } | null = null;
  #counter = 0;
  constructor(ctx: HpkeContext, enc: Uint8Array, maxChunk = DEFAULT_MAX_CHUNK) {
    this.#ctx = ctx;
    this.#enc = enc;
    this.#framer = new ChunkFramer(maxChunk);
  }
  #open(ct: Uint8Array, final: boolean): Uint8Array {
    const k = this.#keys as { key: Uint8Array; nonce: Uint8Array };
    const nonce = xorNonce(k.nonce, this.#counter++);
    return openOrFail(() => aeadOpen(this.#ctx.aeadId, k.key, nonce, final ? FINAL : EMPTY, ct), final);
  }
  push(bytes: Uint8Array): Uint8Array[] {
    let b = bytes;
    if (!this.#keys) {
      const n = responseNonceLength(this.#ctx.aeadId);
      this.#pending = concatBytes(this.#pending, b);
      if (this.#pending.length < n) return [];
      this.#keys = responseKeys(this.#ctx, OHTTP_LABEL.CHUNKED_RESPONSE, this.#enc, this.#pending.subarray(0, n));
      b = this.#pending.subarray(n);
      this.#pending = EMPTY;
    }
    return this.#framer.push(b).map((ct) => this.#open(ct, false));
  }
  /** The final chunk's plaintext; throws NEN_OHTTP_TRUNCATED when the stream ended without it. */
  end(): Uint8Array {
    if (!this.#keys) throw wireError('NEN_OHTTP_TRUNCATED', 'the chunked response ended before its nonce');
    const last = this.#framer.end();
    return this.#open(last, true);
  }
}

export interface ChunkedClientEncapsulation {
  /** hdr || enc: the first bytes of the request body. */
  readonly header: Uint8Array;
  readonly enc: Uint8Array;
  /** One framed request chunk (HPKE Seal with the context's next sequence number). */
  sealChunk(pt: Uint8Array, final?: boolean): Uint8Array;
  responseOpener(maxChunk?: number): ChunkedResponseOpener;
}

export function encapsulateChunkedRequest(config: OhttpKeyConfig, opts: EncapsulateOptions = {}): ChunkedClientEncapsulation {
  const suite = pickSuite(config, opts.suite);
  const hdr = requestHeader(config.keyId, config.kemId, suite.kdfId, suite.aeadId);
  return chunkedSender(hdr, setupBaseS(config.kemId, suite.aeadId, config.publicKey, requestInfo(OHTTP_LABEL.CHUNKED_REQUEST, hdr), opts.randomness));
}

/** encapsulateChunkedRequest with the KEM on WebCrypto where the platform has it (browsers; ./sender-async.ts). */
export async function encapsulateChunkedRequestAsync(
  config: OhttpKeyConfig,
  opts: { readonly suite?: SymmetricSuite } = {},
): Promise<ChunkedClientEncapsulation> {
  const suite = pickSuite(config, opts.suite);
  const hdr = requestHeader(config.keyId, config.kemId, suite.kdfId, suite.aeadId);
  return chunkedSender(hdr, await setupBaseSAsync(config.kemId, suite.aeadId, config.publicKey, requestInfo(OHTTP_LABEL.CHUNKED_REQUEST, hdr)));
}

function chunkedSender(hdr: Uint8Array, sender: { enc: Uint8Array; ctx: HpkeContext }): ChunkedClientEncapsulation {
  const { enc, ctx } = sender;
  let done = false;
  return {
    header: concatBytes(hdr, enc),
    enc,
    sealChunk(pt: Uint8Array, final = false): Uint8Array {
      if (done) throw wireError('NEN_OHTTP_MALFORMED', 'chunk after the final chunk');
      if (!final && pt.length === 0) return EMPTY;
      done = final;
      return frame(ctx.seal(final ? FINAL : EMPTY, pt), final);
    },
    responseOpener: (maxChunk?: number) => new ChunkedResponseOpener(ctx, enc, maxChunk),
  };
}

/** Gateway side of a chunked request: header, then chunks as they arrive. */
export class ChunkedRequestOpener {
  readonly #keys: OhttpGatewayKeys;
  readonly #framer: ChunkFramer;
  #head: ParsedRequestHeader | null = null;
  #ctx: HpkeContext | null = null;
  #pending: Uint8Array = EMPTY;
  constructor(keys: OhttpGatewayKeys, maxChunk = DEFAULT_MAX_CHUNK) {
    this.#keys = keys;
    this.#framer = new ChunkFramer(maxChunk);
  }
  /** The encapsulated key once the header arrived (the replay id), else null. */
  get enc(): Uint8Array | null {
    return this.#head ? this.#head.enc : null;
  }
  get keyId(): number | null {
    return this.#head ? this.#head.keyId : null;
  }
  push(bytes: Uint8Array): Uint8Array[] {
    let b = bytes;
    if (!this.#ctx) {
      this.#pending = concatBytes(this.#pending, b);
      const h = parseRequestHeader(this.#keys, this.#pending);
      if (!h) return [];
      this.#head = h;
      this.#ctx = openContext(h, OHTTP_LABEL.CHUNKED_REQUEST);
      b = this.#pending.subarray(h.length);
      this.#pending = EMPTY;
    }
    const ctx = this.#ctx;
    return this.#framer.push(b).map((ct) => openOrFail(() => ctx.open(EMPTY, ct), false));
  }
  end(): Uint8Array {
    const ctx = this.#ctx;
    if (!ctx) throw wireError('NEN_OHTTP_MALFORMED', 'chunked request shorter than its header');
    const last = this.#framer.end();
    return openOrFail(() => ctx.open(FINAL, last), true);
  }
  /** The response side, once the request header was read. */
  responseSealer(responseNonce?: Uint8Array): ChunkedResponseSealer {
    if (!this.#ctx || !this.#head) throw wireError('NEN_OHTTP_MALFORMED', 'no request header yet');
    return new ChunkedResponseSealer(this.#ctx, this.#head.enc, responseNonce);
  }
}
