/**
 * The demo's one Nen server instance (`createNen`), shared by every route handler.
 *
 * Configuration comes from the environment, read by @nen/server itself: NEN_SERVER_KEYS (the
 * server's long-term X-Wing / ML-KEM-768 keys, printed by `pnpm exec nen keygen`), REDIS_URL (Redis
 * session store, else the bounded in-memory store), NEN_SESSION_TTL, NEN_IDLE_TIMEOUT, NEN_MAX_BODY,
 * NEN_HANDSHAKE_RATE, NEN_SERVER_TIMING.
 *
 * Pitfalls:
 *  - Next.js may evaluate this module once per route bundle and again on every `next dev` reload;
 *    the instance lives on `globalThis` so all routes share one key set and one session store
 *    (otherwise a session made by /api/nen/handshake would be unknown to /api/notes).
 *  - Without NEN_SERVER_KEYS the server runs on a key generated at start: sessions still work, but
 *    clients cannot pin it and every restart invalidates all sessions. A warning says so.
 */
import { createNen } from '@nen/server';
import { count } from './metrics';

type Nen = ReturnType<typeof createNen>;

const KEY = Symbol.for('nen.demo.server');
const holder = globalThis as typeof globalThis & { [KEY]?: Nen };

function create(): Nen {
  if (!process.env.NEN_SERVER_KEYS) {
    console.warn(
      '\n[demo] WARNING: NEN_SERVER_KEYS is not set, so the Nen server uses a key generated for this process only.\n' +
        '[demo]   Clients cannot pin it and a restart ends every session. Generate a key with\n' +
        '[demo]   `pnpm --filter @nen/server exec nen keygen` and set NEN_SERVER_KEYS (and NEXT_PUBLIC_NEN_SERVER_KEY for the pin).\n',
    );
  }
  return createNen({
    logger: (event) => {
      count(`nen.${eventName(event)}`);
    },
  });
}

function eventName(event: unknown): string {
  if (typeof event === 'object' && event !== null) {
    const e = event as Record<string, unknown>;
    for (const k of ['event', 'type', 'code', 'name'] as const) {
      if (typeof e[k] === 'string') return e[k];
    }
  }
  return 'event';
}

export const nen: Nen = (holder[KEY] ??= create());
