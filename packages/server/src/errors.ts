/**
 * The server's typed errors (every code is listed in ERROR_CODES.md; test/error-codes.test.ts
 * checks it). Protocol errors on the wire are core's `NenProtocolError` (`wireError`); these two
 * are the server-only ones:
 *  - `NenConfigError` (NEN_CONFIG): invalid configuration or arguments, thrown at set-up time;
 *  - `StoreUnavailableError` (NEN_STORE_UNAVAILABLE): the session store is unreachable; the
 *    pipeline maps it to a 503 with `Retry-After: 1` (fail closed).
 *
 * Pitfall: messages never carry secrets (keys, seeds, session secrets, plaintext).
 */
import { NenError } from '@nen/core';

export class NenConfigError extends NenError {
  constructor(message: string) {
    super('NEN_CONFIG', message);
    this.name = 'NenConfigError';
  }
}

export class StoreUnavailableError extends NenError {
  declare readonly code: 'NEN_STORE_UNAVAILABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super('NEN_STORE_UNAVAILABLE', message, options);
    this.name = 'StoreUnavailableError';
  }
}
