/**
 * Typed errors with stable codes, shared by every Nen package. The catalog of codes (with HTTP
 * statuses and meaning) is ERROR_CODES.md at the repository root; keep both in step.
 *
 * Pitfall: messages never contain secret material (keys, plaintext, shared secrets).
 */
export class NenError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message.startsWith('nen: ') ? message : `nen: ${message}`, options);
    this.name = 'NenError';
    this.code = code;
  }
}

/** Errors from the crypto layer: wrong lengths, invalid keys, failed authentication. */
export class NenCryptoError extends NenError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'NenCryptoError';
  }
}
