/**
 * A free TCP port on 127.0.0.1 for the servers the repository's tests and benchmarks start
 * themselves (redis-server, workerd, next start, the conformance fault server): the kernel picks
 * an ephemeral port, the probe socket closes, the port is handed over. No dependencies, so
 * @nen/server's tests, tests/consumer, the bench and the conformance runner can all share it.
 *
 * Pitfall: the port is free when this resolves, not necessarily when the server binds it (another
 * process may take it in between); callers' start-up checks must report a failed bind.
 */
import { createServer } from 'node:net';

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('freePort: no port'))));
    });
  });
}
