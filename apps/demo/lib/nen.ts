/**
 * The demo's one Nen server instance (`createNen`), shared by every route handler.
 *
 * Configuration comes from the environment, read by @nen/server itself: NEN_SERVER_KEYS (the
 * server's long-term X-Wing / ML-KEM-768 keys, printed by `pnpm exec nen keygen`), NEN_SESSION_TTL,
 * NEN_IDLE_TIMEOUT, NEN_MAX_BODY, NEN_HANDSHAKE_RATE, NEN_SERVER_TIMING. The session store is chosen
 * here: with REDIS_URL set, `redisStore()` from `@nen/server/redis` (reads REDIS_URL and
 * NEN_STORE_KEY); else the bounded in-memory store. (@nen/server never picks Redis by itself.)
 *
 * Pitfalls:
 *  - Next.js may evaluate this module once per route bundle and again on every `next dev` reload;
 *    the instance lives on `globalThis` so all routes share one key set and one session store
 *    (otherwise a session made by /api/nen/handshake would be unknown to /api/notes).
 *  - Without NEN_SERVER_KEYS the server runs on a key generated at start: sessions still work, but
 *    clients cannot pin it and every restart invalidates all sessions. A warning says so.
 */
import { createNen, type Nen, type NenLogEvent } from '@nen/server';
import { redisStore } from '@nen/server/redis';
import { count } from './metrics';

const KEY = Symbol.for('nen.demo.server');
const holder = globalThis as typeof globalThis & { [KEY]?: Nen };

function create(): Nen {
  if (!process.env.NEN_SERVER_KEYS && process.env.NEXT_PHASE !== 'phase-production-build') {
    console.warn(
      '\n[demo] WARNING: NEN_SERVER_KEYS is not set, so the Nen server uses a key generated for this process only.\n' +
        '[demo]   Clients cannot pin it and a restart ends every session. Generate a key with\n' +
        '[demo]   `pnpm --filter demo exec nen keygen` and set NEN_SERVER_KEYS (and NEN_SERVER_PIN for the browser pin).\n',
    );
  }
  const store = process.env.REDIS_URL ? redisStore({ logger: (e) => logger({ level: e.level, event: e.event, reason: e.message }) }) : undefined;
  return createNen({ logger, store });
}

/** Counts every Nen event for the bench metrics and prints warnings and errors (never secrets). */
function logger(e: NenLogEvent): void {
  count(`nen.${e.event}${e.code ? `.${e.code}` : ''}`);
  if (e.event === 'config.ephemeral_key' || process.env.NEN_LOG === 'silent') return; // warned above
  const line = `nen: ${e.event}${e.code ? ` ${e.code}` : ''}${e.reason ? `: ${e.reason}` : ''}${e.path ? ` (${e.path})` : ''}`;
  if (e.level === 'error') console.error(line);
  else if (e.level === 'warn' && process.env.NEN_LOG !== 'error') console.warn(line);
}

export const nen: Nen = (holder[KEY] ??= create());
