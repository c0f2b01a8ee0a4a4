/**
 * `afterIo(f)`: runs `f` once the event loop has been through one more I/O poll, in an unref'd
 * `setImmediate` queued from another (Node.js, Bun, Deno's Node layer); undefined where the
 * runtime has no `setImmediate` (browsers, Edge, workerd: callers then compute nothing ahead).
 * For the OHTTP sender's encapsulation ahead (./xwing-split-sender.ts, ./kem-wasm.ts): a request
 * encapsulates, then its fetch opens a connection; the connection is ready at the next poll and
 * undici writes the request in that poll's callback, so work queued in one `setImmediate` ran
 * *between* the connect and the write (the first check phase comes before that poll) and
 * delayed a fresh connection's first byte by the whole ahead Encap (issue 23, the cold request:
 * bench/ohttp/cold-split.mjs, fetch -> first socket write 1.18 plain / 1.83 OHTTP -> 1.14 ms).
 * Queued from a second `setImmediate` it runs in the check phase after that poll, behind the write.
 *
 * Pitfalls:
 *  - Ordering, not time: where the connect takes a network round trip the work runs during it
 *    (nothing to wait for); on a keep-alive connection undici writes synchronously inside fetch;
 *    a loopback connect that a loaded machine finishes a poll later still lets the work go first.
 *  - Unref'd: never keeps a process alive; a process that exits first simply computes nothing.
 */
type Immediate = { unref?: () => void };
type SetImmediate = (f: () => void) => Immediate;

const later = (globalThis as { setImmediate?: SetImmediate }).setImmediate;

/** Schedules `f` after the next I/O poll; false where the runtime cannot (nothing scheduled). */
export function afterIo(f: () => void): boolean {
  if (!later) return false;
  later(() => {
    later(f).unref?.();
  }).unref?.();
  return true;
}
