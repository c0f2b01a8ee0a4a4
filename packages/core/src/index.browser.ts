/** @nen/core for browsers (`browser` condition); same API as ./index.ts. */
export * from './errors.js';
export * from './backend/index.browser.js';
export * from './protocol/index.js';
