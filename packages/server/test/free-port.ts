/**
 * A free TCP port on 127.0.0.1 for the tests' own servers (redis-server, workerd, wrangler dev):
 * the repository's shared tests/support/free-port.mjs, under the path these tests import.
 *
 * Pitfall: the port is free when this resolves, not necessarily when the server binds it (another
 * process may take it in between); the callers' start-up checks report a failed bind.
 */
export { freePort } from '../../../tests/support/free-port.mjs';
