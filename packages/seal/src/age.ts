/**
 * age v1 files: seal / open of bytes and strings, and push-style Sealer / Opener state machines
 * that the Web Streams API (./streams.ts) and the CLI drive with constant memory.
 *
 * Opening order: [armor] → header (strict parse) → scrypt-alone rule → identities unwrap the
 * file key (first identity that recognises a stanza wins; a malformed own stanza aborts) → header
 * MAC → 16-byte payload nonce → STREAM chunks, each released after its tag verifies.
 *
 * Pitfalls:
 *  - open() returns nothing unless the whole file authenticates; the Opener releases verified
 *    chunks as they come (STREAM), so a streaming caller can see a verified prefix of a file that
 *    later turns out truncated: it must treat the plaintext as final only at a clean end.
 *  - Post-quantum and classic recipients are not mixed by default (an X25519 stanza next to an
 *    mlkem768x25519 one would void the post-quantum guarantee); scrypt must be alone.
 *  - The header is bounded (maxHeaderBytes), so a stream without a header end cannot grow memory.
 */
import { joinChunks, loadBackend, type Backend } from '@nen/core';
import { ArmorDecoder, ArmorEncoder, looksArmored } from './armor.js';
import { NenSealError, headerError } from './errors.js';
import { findHeaderEnd, lastLineStart, parseHeader, serializeHeader, verifyHeaderMac } from './header.js';
import { parseIdentities, parseRecipient } from './keys.js';
import { FILE_KEY_LENGTH, ScryptRecipient, X25519Recipient, XWingRecipient, type Identity, type Recipient, type Stanza } from './recipients.js';
import { PAYLOAD_NONCE_SIZE, PayloadDecryptor, PayloadEncryptor, checkNonce, payloadKey } from './stream.js';

export type RecipientInput = string | Recipient;
export type IdentityInput = string | Identity;

export interface SealOptions {
  /** ASCII armor (PEM "AGE ENCRYPTED FILE"). Default false. */
  armor?: boolean;
  /** Allow classic (X25519) recipients next to post-quantum ones. Default false. */
  allowMixedRecipients?: boolean;
  backend?: Backend;
}

export interface OpenOptions {
  /** true: armored input required; false: binary required; 'auto' (default): detect. */
  armor?: boolean | 'auto';
  /** Upper bound on the header size (default 16 MiB, ~10,000 post-quantum recipients). */
  maxHeaderBytes?: number;
  backend?: Backend;
}

const DEFAULT_MAX_HEADER = 16 * 1024 * 1024;

export const getBackend = (b?: Backend): Promise<Backend> => (b ? Promise.resolve(b) : loadBackend('auto'));
const asList = <T>(v: T | readonly T[]): readonly T[] => (Array.isArray(v) ? (v as readonly T[]) : [v as T]);

/** `override` says, in the caller's words, how to allow mixing (the CLI names its flag). */
function toRecipients(list: RecipientInput | readonly RecipientInput[], allowMixed: boolean, override = 'set allowMixedRecipients to override'): Recipient[] {
  const rs = asList(list).map((r) => (typeof r === 'string' ? parseRecipient(r) : r));
  if (rs.length === 0) throw new NenSealError('NEN_SEAL_RECIPIENT', 'nen: at least one recipient is required');
  if (rs.some((r) => r instanceof ScryptRecipient) && rs.length > 1)
    throw new NenSealError('NEN_SEAL_RECIPIENT', 'nen: a passphrase (scrypt) recipient must be the only recipient');
  if (!allowMixed && rs.some((r) => r instanceof XWingRecipient) && rs.some((r) => r instanceof X25519Recipient)) {
    throw new NenSealError(
      'NEN_SEAL_RECIPIENT',
      `nen: post-quantum and X25519 recipients are not mixed (the file would not be post-quantum secure); ${override}`,
    );
  }
  return rs;
}

/** Identities; a string may be a whole NEN_SERVER_KEYS value (several keys during a rotation). */
export function toIdentities(list: IdentityInput | readonly IdentityInput[]): Identity[] {
  const ids = asList(list).flatMap((i) => (typeof i === 'string' ? parseIdentities(i) : [i]));
  if (ids.length === 0) throw new NenSealError('NEN_SEAL_KEY', 'nen: at least one identity is required');
  return ids;
}

/** Wraps a fresh file key for every recipient and returns the header plus an encryptor. */
export function createSealer(b: Backend, recipients: readonly Recipient[], armor = false): Sealer {
  return new Sealer(b, recipients, armor);
}

export class Sealer {
  private prefix: Uint8Array | null;
  private readonly enc: PayloadEncryptor;
  private readonly armor: ArmorEncoder | null;

  constructor(b: Backend, recipients: readonly Recipient[], armor: boolean) {
    const fileKey = b.randomBytes(FILE_KEY_LENGTH);
    try {
      const stanzas: Stanza[] = recipients.flatMap((r) => r.wrap(b, fileKey));
      const header = serializeHeader(b, fileKey, stanzas);
      const nonce = b.randomBytes(PAYLOAD_NONCE_SIZE);
      this.prefix = new Uint8Array(header.length + nonce.length);
      this.prefix.set(header);
      this.prefix.set(nonce, header.length);
      this.enc = new PayloadEncryptor(payloadKey(b, fileKey, nonce));
    } finally {
      fileKey.fill(0);
    }
    this.armor = armor ? new ArmorEncoder() : null;
  }

  private emit(chunks: Uint8Array[], out: Uint8Array[]): void {
    if (this.prefix) {
      chunks.unshift(this.prefix);
      this.prefix = null;
    }
    if (!this.armor) out.push(...chunks);
    else for (const c of chunks) this.armor.push(c, out);
  }

  push(data: Uint8Array, out: Uint8Array[]): void {
    const chunks: Uint8Array[] = [];
    this.enc.push(data, chunks);
    if (chunks.length > 0 || this.prefix) this.emit(chunks, out);
  }

  finish(out: Uint8Array[]): void {
    const chunks: Uint8Array[] = [];
    this.enc.finish(chunks);
    this.emit(chunks, out);
    this.armor?.finish(out);
  }

  dispose(): void {
    this.enc.dispose();
  }
}

/** Decrypts an age file pushed in pieces; releases each verified chunk into `out`. */
export class Opener {
  private mode: 'detect' | 'armor' | 'binary';
  private readonly armor = new ArmorDecoder();
  private buf: Uint8Array = new Uint8Array(0);
  private store: Uint8Array = new Uint8Array(0);
  private searchFrom = 0;
  private dec: PayloadDecryptor | null = null;
  private readonly maxHeader: number;

  constructor(
    private readonly b: Backend,
    private readonly identities: readonly Identity[],
    opts: OpenOptions = {},
  ) {
    const a = opts.armor ?? 'auto';
    this.mode = a === 'auto' ? 'detect' : a ? 'armor' : 'binary';
    this.maxHeader = opts.maxHeaderBytes ?? DEFAULT_MAX_HEADER;
  }

  push(data: Uint8Array, out: Uint8Array[]): void {
    if (this.mode === 'detect') {
      this.buf = joinChunks([this.buf, data]);
      const firstNonSpace = this.buf.findIndex((c) => c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d);
      if (firstNonSpace < 0 || this.buf.length < firstNonSpace + 2) {
        if (this.buf.length > 2048) throw headerError('no data');
        return;
      }
      this.mode = looksArmored(this.buf) ? 'armor' : 'binary';
      const held = this.buf;
      this.buf = new Uint8Array(0);
      return this.push(held, out);
    }
    if (this.mode === 'armor') {
      const decoded: Uint8Array[] = [];
      this.armor.push(data, decoded);
      for (const d of decoded) this.pushBinary(d, out);
    } else this.pushBinary(data, out);
  }

  private pushBinary(data: Uint8Array, out: Uint8Array[]): void {
    if (this.dec) return this.dec.push(data, out);
    if (this.buf.length === 0) {
      // Zero-copy when the header and payload nonce arrive whole in one piece (open() of a file).
      const end = findHeaderEnd(data, 0);
      if (end >= 0 && data.length >= end + PAYLOAD_NONCE_SIZE) return this.start(data, end, out);
    }
    this.append(data);
    const end = findHeaderEnd(this.buf, this.searchFrom);
    if (end < 0) {
      if (this.buf.length > this.maxHeader) throw new NenSealError('NEN_SEAL_LIMIT', `nen: age header larger than ${this.maxHeader} bytes`);
      this.searchFrom = lastLineStart(this.buf, this.buf.length);
      return;
    }
    if (this.buf.length < end + PAYLOAD_NONCE_SIZE) return;
    const rest = this.buf;
    this.buf = new Uint8Array(0);
    this.store = this.buf;
    this.start(rest, end, out);
  }

  /** Appends to the header buffer with capacity doubling (no quadratic copying of big headers). */
  private append(data: Uint8Array): void {
    const n = this.buf.length + data.length;
    if (n > this.store.length) {
      const grown = new Uint8Array(Math.max(n, 2 * this.store.length, 4096));
      grown.set(this.buf);
      this.store = grown;
    }
    this.store.set(data, this.buf.length);
    this.buf = this.store.subarray(0, n);
  }

  private start(buf: Uint8Array, headerEnd: number, out: Uint8Array[]): void {
    const h = parseHeader(buf.subarray(0, headerEnd));
    if (h.stanzas.some((s) => s.type === 'scrypt') && h.stanzas.length > 1) throw headerError('an scrypt stanza must be the only stanza');
    let fileKey: Uint8Array | null = null;
    for (const id of this.identities) {
      fileKey = id.unwrap(this.b, h.stanzas);
      if (fileKey) break;
    }
    if (!fileKey) throw new NenSealError('NEN_SEAL_NO_MATCH', 'nen: no identity matches any recipient of this file');
    try {
      verifyHeaderMac(this.b, fileKey, h);
      checkNonce(buf.length - headerEnd);
      const nonce = buf.subarray(headerEnd, headerEnd + PAYLOAD_NONCE_SIZE);
      this.dec = new PayloadDecryptor(payloadKey(this.b, fileKey, nonce));
    } finally {
      fileKey.fill(0);
    }
    this.dec.push(buf.subarray(headerEnd + PAYLOAD_NONCE_SIZE), out);
  }

  finish(out: Uint8Array[]): void {
    if (this.mode === 'detect') {
      const held = this.buf;
      this.buf = new Uint8Array(0);
      this.mode = looksArmored(held) ? 'armor' : 'binary';
      if (held.length > 0) this.push(held, out);
    }
    if (this.mode === 'armor') {
      const decoded: Uint8Array[] = [];
      this.armor.finish(decoded);
      for (const d of decoded) this.pushBinary(d, out);
    }
    if (!this.dec) {
      const buf = this.buf;
      const end = findHeaderEnd(buf, 0);
      if (end < 0) parseHeader(buf); // throws the precise header error
      this.start(buf, end, out);
    }
    (this.dec as PayloadDecryptor).finish(out);
  }

  dispose(): void {
    this.dec?.dispose();
  }
}

/** Seals bytes or a string (UTF-8) to one or more recipients. */
export async function seal(data: Uint8Array | string, recipients: RecipientInput | readonly RecipientInput[], opts: SealOptions = {}): Promise<Uint8Array> {
  const b = await getBackend(opts.backend);
  const s = new Sealer(b, toRecipients(recipients, opts.allowMixedRecipients ?? false), opts.armor ?? false);
  const out: Uint8Array[] = [];
  s.push(typeof data === 'string' ? new TextEncoder().encode(data) : data, out);
  s.finish(out);
  return joinChunks(out);
}

/** Seals and returns the ASCII-armored text. */
export async function sealArmored(data: Uint8Array | string, recipients: RecipientInput | readonly RecipientInput[], opts: SealOptions = {}): Promise<string> {
  return new TextDecoder().decode(await seal(data, recipients, { ...opts, armor: true }));
}

/** Opens an age file (binary or armored); returns the plaintext only if the whole file authenticates. */
export async function open(data: Uint8Array | string, identities: IdentityInput | readonly IdentityInput[], opts: OpenOptions = {}): Promise<Uint8Array> {
  const b = await getBackend(opts.backend);
  const o = new Opener(b, toIdentities(identities), opts);
  const out: Uint8Array[] = [];
  try {
    o.push(typeof data === 'string' ? new TextEncoder().encode(data) : data, out);
    o.finish(out);
  } finally {
    o.dispose();
  }
  return joinChunks(out);
}

/** open() decoded as UTF-8 (fatal on invalid UTF-8). */
export async function openText(data: Uint8Array | string, identities: IdentityInput | readonly IdentityInput[], opts: OpenOptions = {}): Promise<string> {
  return new TextDecoder('utf-8', { fatal: true }).decode(await open(data, identities, opts));
}

export { toRecipients };
