/**
 * Client options: the public `NenClientOptions`, their validation (pins, lifetime), the default
 * pin of the default client, and URL resolution.
 *
 * Pitfalls:
 *  - The default client pins from `process.env.NEXT_PUBLIC_NEN_SERVER_KEY`, written as that exact
 *    expression so Next.js inlines it into browser bundles at build time; in runtimes without
 *    `process` the access throws and is caught (no pin).
 *  - Running unpinned needs an explicit `unpinned: true` (no `serverKey` and no `unpinned` is
 *    NEN_BAD_SERVER_KEY); it logs exactly one warning per process: the handshake is then
 *    authenticated by TLS only.
 *  - In Node there is no `location`: a relative URL needs `baseUrl`; the error says so.
 */
import { KEM_ID, type Backend, type BackendKind, type KemId, type ServerKeyPin, parseServerKeyPin } from '@nen/core';
import { clientError } from './errors.js';

/** What an intermediary sees of one HTTP exchange (for wire panels and benchmarks). */
export interface WireExchange {
  readonly kind: 'handshake' | 'request' | 'session';
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Record<string, string>;
  readonly requestBodyLength: number;
  /** First 32 bytes of the request body on the wire, hex. */
  readonly requestBodyHex: string;
  readonly status: number;
  readonly responseHeaders: Record<string, string>;
  /** Body bytes on the wire; null for streams (not buffered). */
  readonly responseBodyLength: number | null;
  readonly responseBodyHex: string;
}

export interface NenClientOptions {
  /** Base URL for relative inputs (default: `location.href` in browsers; required in Node). */
  baseUrl?: string;
  /** Where the session routes are mounted (default `/api/nen`). */
  sessionPath?: string;
  /**
   * Pinned server key(s) "kid:base64url(publicKey)" (from `nen keygen`): authenticates the server
   * independently of TLS. Several pins (newest first) bridge a key rotation: each handshake uses the
   * first pin and, when the server answers `NEN_UNKNOWN_KEY_ID`, tries the next one (each at most
   * once per handshake). Every pin is trusted equally: drop a pin as soon as its key is retired.
   */
  serverKey?: string | readonly string[];
  /** Run without a pinned server key (TLS-only server authentication); required when there is no `serverKey`; logs one warning. */
  unpinned?: boolean;
  /** KEM when no key is pinned (default X-Wing). */
  kem?: 'xwing' | 'mlkem768';
  /**
   * Crypto backend (default 'auto': node:crypto + Wasm on Node.js, Wasm on Edge, `@noble` in browsers,
   * so a page downloads no .wasm; 'wasm' in a browser fetches and compiles it on first use).
   */
  backend?: BackendKind | Backend;
  /** Per-call timeout in ms (default 30 000; 0 disables). */
  timeoutMs?: number;
  /** Compress request bodies inside the envelope and accept compressed responses (off by default; see THREAT_MODEL.md). */
  compress?: boolean;
  /** Move query strings inside the envelope (off by default). */
  confidentialQuery?: boolean;
  /** Transport (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Ask for a session lifetime shorter than the server's, in seconds. */
  sessionLifetimeSeconds?: number;
  /** Called with what an intermediary sees of each exchange. */
  onExchange?: (e: WireExchange) => void;
  /** Largest decompressed response accepted, bytes (default 64 MiB). */
  maxResponseBytes?: number;
  /**
   * 'session' (default): handshake, then sealed requests. 'ohttp': Oblivious HTTP (RFC 9458), no
   * handshake: each request is encapsulated to `keyConfig` and posted to `relay`.
   */
  mode?: 'session' | 'ohttp';
  /** OHTTP: where encapsulated requests are posted (a relay, or the gateway itself). */
  relay?: string | URL;
  /**
   * OHTTP: the gateway's Key Config, pinned: base64url (or bytes) of one encoded Key Config, or
   * 1-16 `sha256:<base64url>` digests of one (then fetched from `keyConfigUrl`; a served config
   * matching no pin is NEN_OHTTP_KEY_MISMATCH).
   */
  keyConfig?: string | Uint8Array | readonly string[];
  /** OHTTP: the gateway's `application/ohttp-keys` resource (e.g. https://gw/.well-known/ohttp-gateway). */
  keyConfigUrl?: string | URL;
  /** OHTTP: accept an X25519 (not post-quantum) key config. */
  allowClassical?: boolean;
  /** OHTTP: chunked OHTTP for every request (default: only `stream()`). */
  chunked?: boolean;
}

/** Options after validation, with defaults applied. */
export interface ClientConfig {
  readonly options: NenClientOptions;
  readonly sessionPath: string;
  readonly pins: readonly ServerKeyPin[];
  readonly unpinnedKem: KemId;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly lifetime: number;
  readonly fetch: typeof fetch;
  readonly resolveUrl: (input: string | URL) => URL;
}

/** `serverKey` option → pins, in order; a malformed pin or an empty list is NEN_BAD_SERVER_KEY. */
export function parsePins(serverKey: string | readonly string[] | undefined): readonly ServerKeyPin[] {
  if (serverKey === undefined || serverKey === '') return [];
  if (typeof serverKey === 'string') return [parseServerKeyPin(serverKey)];
  if (!Array.isArray(serverKey) || serverKey.length === 0 || serverKey.length > 16) {
    throw clientError('NEN_BAD_SERVER_KEY', 'serverKey must be a pin or a list of 1 to 16 pins');
  }
  const pins = serverKey.map((p: unknown) => {
    if (typeof p !== 'string') throw clientError('NEN_BAD_SERVER_KEY', 'each pin must be a "kid:base64url(publicKey)" string');
    return parseServerKeyPin(p);
  });
  if (new Set(pins.map((p) => p.kid)).size !== pins.length) throw clientError('NEN_BAD_SERVER_KEY', 'two pins share a key id');
  return pins;
}

/** The pin the default client uses: NEXT_PUBLIC_NEN_SERVER_KEY (inlined by Next.js at build time). */
export function defaultServerKey(): string | undefined {
  try {
    const v = process.env.NEXT_PUBLIC_NEN_SERVER_KEY;
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  } catch {
    return undefined; // no `process` (browser without a bundler define, Deno, workers)
  }
}

let warnedUnpinned = false;

/** Logs the unpinned warning once (per module instance). */
function warnUnpinned(): void {
  if (warnedUnpinned) return;
  warnedUnpinned = true;
  console.warn(
    'nen: running without a pinned server key: the handshake is authenticated by TLS only. ' +
      'Pin the key `nen keygen` printed (NEXT_PUBLIC_NEN_SERVER_KEY, or createNenClient({ serverKey })).',
  );
}

export function resolveConfig(options: NenClientOptions): ClientConfig {
  const pins = parsePins(options.serverKey);
  if (options.mode === 'ohttp') return baseConfig(options, pins);
  if (options.unpinned && pins.length > 0) throw clientError('NEN_BAD_INPUT', 'serverKey and unpinned: true exclude each other');
  if (pins.length === 0 && options.unpinned !== true) {
    throw clientError(
      'NEN_BAD_SERVER_KEY',
      'no server key to pin: pass serverKey (the pin `nen keygen` printed), or unpinned: true to run with TLS-only server authentication',
    );
  }
  if (pins.length === 0) warnUnpinned();
  return baseConfig(options, pins);
}

function baseConfig(options: NenClientOptions, pins: readonly ServerKeyPin[]): ClientConfig {
  const lifetime = options.sessionLifetimeSeconds ?? 0;
  if (!Number.isInteger(lifetime) || lifetime < 0) throw clientError('NEN_BAD_INPUT', 'sessionLifetimeSeconds must be a non-negative integer');
  const userFetch = options.fetch;
  return {
    options,
    sessionPath: (options.sessionPath ?? '/api/nen').replace(/\/+$/, ''),
    pins,
    unpinnedKem: options.kem === 'mlkem768' ? KEM_ID.MLKEM768 : KEM_ID.XWING,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? 64 * 1024 * 1024,
    lifetime,
    fetch: userFetch ?? ((...a: Parameters<typeof fetch>) => globalThis.fetch(...a)),
    resolveUrl: (input) => resolveUrl(input, options.baseUrl),
  };
}

function resolveUrl(input: string | URL, baseUrl: string | undefined): URL {
  const base = baseUrl ?? (typeof location !== 'undefined' ? location.href : undefined);
  try {
    return new URL(input, base);
  } catch (e) {
    const fix = base === undefined ? ": outside a browser, relative URLs need a base: createNenClient({ baseUrl: 'https://your.app' })" : '';
    throw clientError('NEN_BAD_INPUT', `cannot resolve URL ${String(input).slice(0, 100)}${fix}`, e);
  }
}
