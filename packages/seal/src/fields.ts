/**
 * Field sealing: selected JSON fields of a record sealed for storage, each bound to its path
 * (RFC 6901 JSON Pointer) and to a record id the caller names.
 *
 * One KEM encapsulation per record and recipient, not per field: a fresh 16-byte file key is
 * wrapped once in an age header (the same stanzas and header MAC as an age file) kept in the
 * record under `envelopeKey` (default "_nen"). Each field gets its own key and AAD:
 *
 *   field key = HKDF-SHA256(ikm = file key, salt = SHA-256(header), info = "nen-seal/field/v1" || ctx)
 *   ctx       = u16(len(recordId)) || recordId || u32(len(path)) || path      (UTF-8)
 *   value     = "nen:v1:" || base64url(nonce(12, random) || ChaCha20-Poly1305(field key, nonce, ctx, JSON(value)))
 *
 * A value moved to another path, copied to another record, or paired with another record's
 * header fails to open (NEN_SEAL_FIELD). The nonce is random: the field key is unique per
 * (record header, record id, path), and a re-seal of the same field draws a fresh nonce.
 *
 * Pitfalls: paths are JSON Pointers ("/a/b", "~1" for "/", "~0" for "~"); opening walks the record
 * and opens every "nen:v1:" string at the path where it is found; the header alone does not
 * authenticate the fields (each field's AEAD does).
 */
import type { Backend } from '@nen/core';
import { concatBytes, fromBase64Url, toBase64Url } from '@nen/core';
import { getBackend, toIdentities, toRecipients, type IdentityInput, type RecipientInput } from './age.js';
import { u16, utf8 } from './bytes.js';
import { NenSealError } from './errors.js';
import { parseHeader, serializeHeader, verifyHeaderMac } from './header.js';
import { FILE_KEY_LENGTH, type Identity } from './recipients.js';

export const FIELD_PREFIX = 'nen:v1:';
const FIELD_INFO = utf8('nen-seal/field/v1');
const NONCE = 12;

export interface FieldOptions {
  /** The caller's id of the record (primary key); binds every field to it. */
  recordId: string;
  /** Where the record's envelope (the age header) is kept. Default "_nen". */
  envelopeKey?: string;
  backend?: Backend;
}

export interface SealFieldsOptions extends FieldOptions {
  allowMixedRecipients?: boolean;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Container = Json[] | { [k: string]: Json };

const fieldError = (msg: string) => new NenSealError('NEN_SEAL_FIELD', `nen: ${msg}`);

function splitPointer(path: string): string[] {
  if (!path.startsWith('/')) throw fieldError(`field path must be a JSON Pointer starting with "/": ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const escapeToken = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1');

function parentOf(root: Json, path: string): { parent: Container; key: string } {
  const tokens = splitPointer(path);
  let node: Json = root;
  for (const t of tokens.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, t)) throw fieldError(`no field at ${path}`);
    node = (node as Record<string, Json>)[t] as Json;
  }
  const key = tokens[tokens.length - 1] as string;
  if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) throw fieldError(`no field at ${path}`);
  return { parent: node as Container, key };
}

function fieldContext(recordId: string, path: string): Uint8Array {
  const id = utf8(recordId);
  const p = utf8(path);
  if (id.length > 0xffff) throw fieldError('record id longer than 65535 bytes');
  const len = new Uint8Array(4);
  new DataView(len.buffer).setUint32(0, p.length);
  return concatBytes(u16(id.length), id, len, p);
}

function withFieldKey<T>(b: Backend, fileKey: Uint8Array, headerHash: Uint8Array, ctx: Uint8Array, f: (aead: ReturnType<Backend['createAead']>) => T): T {
  const prk = b.hkdfExtract(headerHash, fileKey);
  const key = b.hkdfExpand(prk, concatBytes(FIELD_INFO, ctx), 32);
  prk.fill(0);
  const aead = b.createAead(key);
  key.fill(0);
  try {
    return f(aead);
  } finally {
    aead.dispose();
  }
}

function checkRecord(record: unknown): Record<string, Json> {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) throw fieldError('the record must be a JSON object');
  return record as Record<string, Json>;
}

/** Seals the fields at `paths` (JSON Pointers) of a JSON object record; returns a sealed copy. */
export async function sealFields(
  record: object,
  paths: readonly string[],
  recipients: RecipientInput | readonly RecipientInput[],
  opts: SealFieldsOptions,
): Promise<Record<string, unknown>> {
  const b = await getBackend(opts.backend);
  const envelopeKey = opts.envelopeKey ?? '_nen';
  const copy = checkRecord(structuredClone(record));
  if (Object.hasOwn(copy, envelopeKey)) throw fieldError(`the record already has an envelope at "${envelopeKey}"`);
  const rs = toRecipients(recipients, opts.allowMixedRecipients ?? false);
  const fileKey = b.randomBytes(FILE_KEY_LENGTH);
  try {
    const header = serializeHeader(
      b,
      fileKey,
      rs.flatMap((r) => r.wrap(b, fileKey)),
    );
    const headerHash = b.sha256(header);
    for (const path of new Set(paths)) {
      if (splitPointer(path)[0] === envelopeKey) throw fieldError('cannot seal the envelope itself');
      const { parent, key } = parentOf(copy, path);
      const ctx = fieldContext(opts.recordId, path);
      const nonce = b.randomBytes(NONCE);
      const pt = utf8(JSON.stringify((parent as Record<string, Json>)[key]));
      const ct = withFieldKey(b, fileKey, headerHash, ctx, (aead) => aead.seal(nonce, ctx, pt));
      (parent as Record<string, Json>)[key] = FIELD_PREFIX + toBase64Url(concatBytes(nonce, ct));
    }
    copy[envelopeKey] = toBase64Url(header);
    return copy;
  } finally {
    fileKey.fill(0);
  }
}

function walk(node: Json, path: string, visit: (parent: Container, key: string, path: string, value: string) => void): void {
  if (node === null || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    const p = `${path}/${escapeToken(k)}`;
    if (typeof v === 'string' && v.startsWith(FIELD_PREFIX)) visit(node, k, p, v);
    else walk(v, p, visit);
  }
}

function unwrapRecordKey(b: Backend, ids: readonly Identity[], envelope: unknown): { fileKey: Uint8Array; headerHash: Uint8Array } {
  const header = typeof envelope === 'string' ? fromBase64Url(envelope) : null;
  if (!header) throw fieldError('the record has no valid envelope');
  const h = parseHeader(header);
  if (h.length !== header.length) throw fieldError('trailing bytes after the envelope header');
  for (const id of ids) {
    const fileKey = id.unwrap(b, h.stanzas);
    if (fileKey) {
      verifyHeaderMac(b, fileKey, h);
      return { fileKey, headerHash: b.sha256(header) };
    }
  }
  throw new NenSealError('NEN_SEAL_NO_MATCH', 'nen: no identity matches any recipient of this record');
}

/** Opens every sealed field of a record (one decapsulation); returns a copy without the envelope. */
export async function openFields(record: object, identities: IdentityInput | readonly IdentityInput[], opts: FieldOptions): Promise<Record<string, unknown>> {
  const b = await getBackend(opts.backend);
  const envelopeKey = opts.envelopeKey ?? '_nen';
  const copy = checkRecord(structuredClone(record));
  const { fileKey, headerHash } = unwrapRecordKey(b, toIdentities(identities), copy[envelopeKey]);
  delete copy[envelopeKey];
  try {
    walk(copy, '', (parent, key, path, value) => {
      const raw = fromBase64Url(value.slice(FIELD_PREFIX.length));
      if (!raw || raw.length < NONCE + 16) throw fieldError(`malformed sealed field at ${path}`);
      const ctx = fieldContext(opts.recordId, path);
      let pt: Uint8Array;
      try {
        pt = withFieldKey(b, fileKey, headerHash, ctx, (aead) => aead.open(raw.subarray(0, NONCE), ctx, raw.subarray(NONCE)));
      } catch {
        throw fieldError(`the sealed field at ${path} does not open for this record and path (moved, copied or altered)`);
      }
      (parent as Record<string, Json>)[key] = JSON.parse(new TextDecoder().decode(pt)) as Json;
    });
    return copy;
  } finally {
    fileKey.fill(0);
  }
}
