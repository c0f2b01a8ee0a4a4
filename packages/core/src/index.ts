/**
 * @nen/core for Node.js: the crypto backends (Wasm, @noble, node:crypto) behind one interface, and
 * the protocol shared by @nen/client and @nen/server (./public.ts: the envelope, the handshake, the
 * key schedule, the error catalog).
 *
 * Pitfall: every entry exports the same names (test/entries.test.ts), but for the OHTTP codec that
 * browsers import from `@nen/core/ohttp`; only `loadBackend` differs
 * per runtime, so the rest comes from ./public.ts once.
 */
export { loadBackend } from './backend/index.js';
export type { BackendKind } from './backend/index.js';
export * from './public.js';
export * from './ohttp/index.js';
