/**
 * Server configuration: the public `NenConfig` / `NenLogEvent` types, environment parsing
 * (NEN_SESSION_TTL, NEN_IDLE_TIMEOUT, NEN_MAX_BODY, NEN_HANDSHAKE_RATE, NEN_HANDSHAKES_PER_SECOND,
 * NEN_UNCONFIRMED_TTL, NEN_TRUST_PROXY, NEN_SERVER_TIMING,
 * NEN_SERVER_KEYS, NEN_LOG) and the defaults, resolved once per `createNen()`.
 *
 * Pitfalls:
 *  - Invalid values throw NenConfigError (NEN_CONFIG) at `createNen()`, never at the first request.
 *  - The default logger prints warnings and errors only (NEN_LOG=error: errors only; silent: none);
 *    log events never carry secrets or plaintext.
 */
import { type Backend, type BackendKind, DEFAULT_TIMESTAMP_WINDOW_MS } from '@nen/core';
import { NenConfigError } from './errors.js';
import { parseServerKeys, type ServerKeySpec } from './keys.js';
import { trustedProxyAddress } from './ratelimit.js';
import type { SessionStore } from './stores/types.js';

/** Something the server reports; never contains secret material. */
export interface NenLogEvent {
  readonly level: 'info' | 'warn' | 'error';
  /** e.g. `request.rejected`, `handshake`, `handler.error`, `store.error`, `session.rotate`. */
  readonly event: string;
  readonly code?: string;
  /** Precise reason (log only; the wire gets the generic catalog message). */
  readonly reason?: string;
  readonly status?: number;
  /** First 8 characters of the session id. */
  readonly session?: string;
  readonly path?: string;
}

export interface NenConfig {
  /**
   * Session store; default: the in-memory store of this process / isolate (at most NEN_MAX_SESSIONS
   * sessions, default 50 000, least recently used evicted). Several instances need a shared store:
   * `redisStore()` from `@nen/server/redis` (Node), the Durable Object store from `@nen/server/workers`.
   * With REDIS_URL set, a store must be passed (else NEN_CONFIG).
   */
  store?: SessionStore;
  /** Server static keys: the NEN_SERVER_KEYS string or parsed specs; default env NEN_SERVER_KEYS, else one key generated per process. */
  serverKeys?: string | readonly ServerKeySpec[];
  /** Maximum (and default) session lifetime, seconds (NEN_SESSION_TTL, default 3600). */
  sessionTtlSeconds?: number;
  /** Idle timeout, seconds (NEN_IDLE_TIMEOUT, default 900). */
  idleTimeoutSeconds?: number;
  /** Maximum plaintext body, bytes (NEN_MAX_BODY, default 4 MiB). */
  maxBodyBytes?: number;
  /** Handshakes per minute per client address (NEN_HANDSHAKE_RATE, default 120; 0 disables). Needs a client address: `trustProxy` or `clientAddress`. */
  handshakeRateLimit?: number;
  /** Per-instance ceiling on handshakes per second, whatever the address (NEN_HANDSHAKES_PER_SECOND, default 2000; 0 disables): 429 NEN_RATE_LIMITED + Retry-After. */
  handshakesPerSecond?: number;
  /** A session on which no request has committed yet dies after this many seconds (NEN_UNCONFIRMED_TTL, default 30). */
  unconfirmedTtlSeconds?: number;
  /**
   * Reverse proxies in front of the server that append to `x-forwarded-for` (NEN_TRUST_PROXY, default 0).
   * 0: the header is ignored and there is no per-address limit (only the per-instance ceiling);
   * n: the client address is the n-th entry from the right.
   */
  trustProxy?: number;
  /** Compress responses inside the envelope for clients that accept it (off by default). */
  compression?: boolean;
  /** Add a Server-Timing header with the Nen crypto and store timings (NEN_SERVER_TIMING=1). */
  serverTiming?: boolean;
  /** Receives protocol events with precise reasons; default: warnings/errors to console. */
  logger?: (event: NenLogEvent) => void;
  /** Crypto backend: a Backend or a kind for loadBackend (default 'auto'). */
  backend?: Backend | BackendKind;
  /** Accepted clock difference for request timestamps, ms (default 30 000). */
  timestampWindowMs?: number;
  /** Client address for the per-address handshake limit (default: from `trustProxy`; null/'' = no per-address limit). */
  clientAddress?: (request: Request) => string | null;
  /** Grace period after a rotate during which the previous epoch is still accepted, ms (default 30 000). */
  rotateGraceMs?: number;
  /** In-process session key cache size (default 10 000). */
  keyCacheSize?: number;
  /** Clock in ms since the Unix epoch (default Date.now); for tests and simulations. */
  now?: () => number;
}

/** The configuration with every default applied. */
export interface ServerSettings {
  readonly ttlS: number;
  readonly idleS: number;
  readonly maxBody: number;
  readonly rate: number;
  readonly handshakesPerSecond: number;
  readonly unconfirmedMs: number;
  readonly serverTiming: boolean;
  readonly compression: boolean;
  readonly log: (event: NenLogEvent) => void;
  readonly tsWindow: number;
  readonly grace: number;
  readonly clientAddress: (request: Request) => string | null;
  readonly clock: () => number;
  readonly keyCacheSize: number;
  /** Parsed server keys, or null for one ephemeral key per process. */
  readonly keySpecs: readonly ServerKeySpec[] | null;
  readonly backend: Backend | BackendKind | undefined;
}

export function env(name: string): string | undefined {
  return typeof process !== 'undefined' ? process.env[name] : undefined;
}

export function envInt(name: string, def: number): number {
  const v = env(name);
  if (v === undefined || v.trim() === '') return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new NenConfigError(`${name} must be a non-negative number`);
  return n;
}

const defaultLogger = (e: NenLogEvent): void => {
  const level = env('NEN_LOG');
  if (level === 'silent') return;
  const line = `nen: ${e.event}${e.code ? ` ${e.code}` : ''}${e.reason ? `: ${e.reason}` : ''}`;
  if (e.level === 'error') console.error(line);
  else if (e.level === 'warn' && level !== 'error') console.warn(line);
};

export function resolveSettings(config: NenConfig): ServerSettings {
  const ttlS = config.sessionTtlSeconds ?? envInt('NEN_SESSION_TTL', 3600);
  const idleS = config.idleTimeoutSeconds ?? envInt('NEN_IDLE_TIMEOUT', 900);
  if (!(ttlS >= 1 && ttlS <= 0xffffffff)) throw new NenConfigError('session TTL must be 1..2^32-1 seconds');
  if (!(idleS >= 1 && idleS <= 0xffffffff)) throw new NenConfigError('idle timeout must be 1..2^32-1 seconds');
  const keysEnv = env('NEN_SERVER_KEYS');
  return {
    ttlS,
    idleS,
    maxBody: config.maxBodyBytes ?? envInt('NEN_MAX_BODY', 4 * 1024 * 1024),
    rate: config.handshakeRateLimit ?? envInt('NEN_HANDSHAKE_RATE', 120),
    handshakesPerSecond: config.handshakesPerSecond ?? envInt('NEN_HANDSHAKES_PER_SECOND', 2000),
    unconfirmedMs: Math.max(1, config.unconfirmedTtlSeconds ?? envInt('NEN_UNCONFIRMED_TTL', 30)) * 1000,
    serverTiming: config.serverTiming ?? env('NEN_SERVER_TIMING') === '1',
    compression: config.compression ?? false,
    log: config.logger ?? defaultLogger,
    tsWindow: config.timestampWindowMs ?? DEFAULT_TIMESTAMP_WINDOW_MS,
    grace: config.rotateGraceMs ?? 30_000,
    clientAddress: config.clientAddress ?? trustedProxyAddress(config.trustProxy ?? envInt('NEN_TRUST_PROXY', 0)),
    clock: config.now ?? Date.now,
    keyCacheSize: Math.max(16, config.keyCacheSize ?? 10_000),
    keySpecs:
      typeof config.serverKeys === 'string'
        ? parseServerKeys(config.serverKeys)
        : config.serverKeys
          ? config.serverKeys
          : keysEnv
            ? parseServerKeys(keysEnv)
            : null,
    backend: config.backend,
  };
}
