/**
 * Typed errors with stable codes, shared by every Nen package: NenError (the base, every Nen error
 * is one), NenCryptoError (the crypto layer), NenProtocolError (the protocol; its catalog with HTTP
 * statuses and client actions is ./protocol/codes.ts). The catalog of codes (with HTTP
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

/**
 * A protocol-level error. On the server it carries the HTTP status and a precise (log-only)
 * reason; on the client, `status` is the status the server reported.
 */
export class NenProtocolError extends NenError {
  readonly status: number | undefined;
  /** Precise reason, for the server log only; never sent on the wire. */
  readonly reason: string | undefined;
  constructor(code: string, message: string, options?: { status?: number; reason?: string; cause?: unknown }) {
    super(code, message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NenProtocolError';
    this.status = options?.status;
    this.reason = options?.reason;
  }
}
