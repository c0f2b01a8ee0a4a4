/**
 * The client's errors: every failure is a `NenProtocolError` (from @nen/core) with a stable code
 * listed in ERROR_CODES.md ("Raised by the client only", plus the server's wire codes it relays).
 *
 * Pitfall: a server's protocol error response is unauthenticated; `serverError` trusts its code
 * only when the status matches the catalog, and never reads the body as data.
 */
import { HEADER, NenProtocolError, WIRE_ERRORS, clientError, isWireErrorCode } from '@nen/core';

export { NenProtocolError, clientError };

/** An unauthenticated server error response → NenProtocolError (a hint, never data). */
export function serverError(res: Response, detail: string): NenProtocolError {
  const code = res.headers.get(HEADER.error);
  if (code && isWireErrorCode(code) && WIRE_ERRORS[code].status === res.status) {
    return new NenProtocolError(code, `nen: ${WIRE_ERRORS[code].message}`, { status: res.status });
  }
  return clientError('NEN_RESPONSE_UNAUTHENTICATED', detail);
}

/** The client action the catalog prescribes for a server-reported code ('fail' for any other error). */
export function recoveryOf(e: unknown): 'rehandshake-retry' | 'rehandshake-once' | 'fail' {
  if (e instanceof NenProtocolError && e.code && isWireErrorCode(e.code)) return WIRE_ERRORS[e.code].client;
  return 'fail';
}
