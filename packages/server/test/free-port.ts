/**
 * A free TCP port on 127.0.0.1 for the tests' own servers (redis-server, workerd, wrangler dev).
 *
 * Pitfall: the port is free when this resolves, not necessarily when the server binds it (another
 * process may take it in between); the callers' start-up checks report a failed bind.
 */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}
