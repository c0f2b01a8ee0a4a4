/**
 * Preloaded into `next start` by uploads.test.ts (NODE_OPTIONS=--require … --expose-gc): on SIGUSR2
 * the process runs a full GC and writes its process.memoryUsage() as JSON to
 * `$NEN_MEMORY_PROBE.<pid>`, so the suite can bound the server's memory without a route for it.
 * Pitfalls: does nothing without NEN_MEMORY_PROBE; the signal handler keeps no process alive.
 */
const { writeFileSync } = require('node:fs');

const out = process.env.NEN_MEMORY_PROBE;
if (out) {
  process.on('SIGUSR2', () => {
    if (typeof globalThis.gc === 'function') globalThis.gc();
    writeFileSync(`${out}.${process.pid}`, JSON.stringify(process.memoryUsage()));
  });
}
