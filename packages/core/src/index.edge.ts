/** @nen/core for Edge runtimes (`edge-light` / `workerd` conditions); same API as ./index.ts. */
export * from './errors.js';
export * from './backend/index.edge.js';
export * from './protocol/index.js';
