/**
 * @nen/core: the crypto backends (Wasm, @noble, node:crypto) behind one interface, and the
 * protocol codec shared by @nen/client and @nen/server.
 */
export * from './errors.js';
export * from './backend/index.js';
export * from './protocol/index.js';
