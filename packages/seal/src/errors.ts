/**
 * Typed errors of @nen/seal with stable codes (catalog: ERROR_CODES.md, section "@nen/seal").
 *
 * The age failure classes of the CCTV vectors map one to one onto codes: header failure →
 * NEN_SEAL_HEADER, no match → NEN_SEAL_NO_MATCH, HMAC failure → NEN_SEAL_HMAC, payload failure →
 * NEN_SEAL_PAYLOAD, armor failure → NEN_SEAL_ARMOR.
 *
 * Pitfall: messages never carry key material or plaintext.
 */
import { NenError } from '@nen/core';

export type SealErrorCode =
  | 'NEN_SEAL_HEADER'
  | 'NEN_SEAL_NO_MATCH'
  | 'NEN_SEAL_HMAC'
  | 'NEN_SEAL_PAYLOAD'
  | 'NEN_SEAL_ARMOR'
  | 'NEN_SEAL_KEY'
  | 'NEN_SEAL_RECIPIENT'
  | 'NEN_SEAL_LIMIT'
  | 'NEN_SEAL_UNAVAILABLE'
  | 'NEN_SEAL_FIELD'
  | 'NEN_SEAL_SIGNATURE'
  | 'NEN_SEAL_USAGE'
  | 'NEN_SEAL_WEBHOOK_HEADERS'
  | 'NEN_SEAL_WEBHOOK_SIGNATURE'
  | 'NEN_SEAL_WEBHOOK_TIMESTAMP'
  | 'NEN_SEAL_WEBHOOK_REPLAY'
  | 'NEN_SEAL_WEBHOOK_BODY';

export class NenSealError extends NenError {
  declare readonly code: SealErrorCode;
  constructor(code: SealErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'NenSealError';
  }
}

export const headerError = (msg: string, cause?: unknown): NenSealError =>
  new NenSealError('NEN_SEAL_HEADER', `invalid age header: ${msg}`, cause === undefined ? undefined : { cause });
export const payloadError = (msg: string): NenSealError => new NenSealError('NEN_SEAL_PAYLOAD', `invalid age payload: ${msg}`);
export const armorError = (msg: string): NenSealError => new NenSealError('NEN_SEAL_ARMOR', `invalid age armor: ${msg}`);
export const keyError = (msg: string): NenSealError => new NenSealError('NEN_SEAL_KEY', msg);
