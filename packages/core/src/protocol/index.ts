/**
 * The Nen protocol codec shared by @nen/client and @nen/server (PROTOCOL.md is its prose form).
 */
export * from './bytes.js';
export * from './codes.js';
export * from './constants.js';
export * from './handshake.js';
export * from './keys.js';
export * from './message.js';
export * from './replay.js';
