/**
 * The demo's Oblivious HTTP gateway (RFC 9458; PROTOCOL.md §11), served at
 * `/.well-known/ohttp-gateway` (RFC 9540): GET the key configurations, POST encapsulated requests.
 * Inner requests reach the same `withNen` handlers as session mode, listed here by path (Next.js
 * has no in-process dispatch between route files; docs/adapters.md).
 *
 * Pitfalls:
 *  - Keys come from NEN_OHTTP_KEYS (`pnpm --filter demo exec nen keygen --ohttp`), separate from
 *    NEN_SERVER_KEYS. Without it the demo generates an X-Wing and an X25519 key for this process
 *    (a warning says so): clients cannot pin them and a restart changes them.
 *  - One instance per process on globalThis, as lib/nen.ts: every route bundle shares its keys.
 */
import type { OhttpGateway } from '@nen/server';
import { GET as echoGet, POST as echoPost } from '../app/api/echo/route';
import { GET as notesGet, POST as notesPost } from '../app/api/notes/route';
import { nen } from './nen';

const KEY = Symbol.for('nen.demo.ohttp');
const holder = globalThis as typeof globalThis & { [KEY]?: OhttpGateway };

export function ohttpGateway(): OhttpGateway {
  let g = holder[KEY];
  if (!g) {
    if (!process.env.NEN_OHTTP_KEYS) {
      console.warn('[demo] NEN_OHTTP_KEYS is not set: the OHTTP gateway uses keys generated for this process (`nen keygen --ohttp` makes one).');
    }
    g = nen.ohttpGateway({
      ephemeralKeys: true,
      routes: {
        '/api/echo': { GET: echoGet, POST: echoPost },
        '/api/notes': { GET: notesGet, POST: notesPost },
      },
    });
    holder[KEY] = g;
  }
  return g;
}
