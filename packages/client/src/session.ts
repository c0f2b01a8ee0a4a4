/**
 * Client sessions: the handshake (with pin fallback on key rotation), the live session and its
 * replacement, and rekeying (`rotate`). One `Sessions` per client.
 *
 * Pitfalls:
 *  - One handshake in flight whatever the concurrency; it is not tied to any one caller's signal
 *    (one caller aborting must not fail the others): each caller stops waiting on its own signal.
 *  - Several pins (rotation): only `NEN_UNKNOWN_KEY_ID` moves a handshake on to the next pin; a
 *    failed key confirmation under a pin the server claims to hold is final (a substituted key).
 *  - A browser page's first handshake also runs the request's key derivation and sealing once on
 *    zeros while its ClientHello is in flight (`warmDuringRoundTrip`: compiled while the main
 *    thread is idle, not after the ServerHello); nothing of it is kept or sent.
 *  - Session keys are reference counted: a replaced session is disposed only when its last
 *    in-flight request or stream finishes. Sequence numbers continue across rekeys (the server's
 *    replay window is per session), so a (key, nonce) pair is never reused.
 */
import {
  type Backend,
  type ClientHandshakeResult,
  type ServerKeyPin,
  MEDIA_TYPE,
  NenProtocolError,
  SessionKeys,
  clientHandshakeStartAsync,
  loadBackend,
  nextEpochSecret,
  sealRequest,
  toBase64Url,
} from '@nen/core';
import { clientError, serverError } from './errors.js';
import type { ClientConfig } from './options.js';
import { SequenceCounter } from './sequence.js';
import { deadline, head32, headersRecord, readBodyLimited, report, untilAborted } from './transport.js';

export interface NenSessionInfo {
  readonly id: string;
  /** Absolute expiry, ms since the Unix epoch (local clock). */
  readonly expiresAt: number;
  /** Pinned server key id, or null when the handshake was not server-authenticated. */
  readonly keyId: string | null;
  readonly epoch: number;
}

export class SessionState {
  inflight = 0;
  retired = false;
  constructor(
    readonly id: Uint8Array,
    readonly idStr: string,
    readonly epoch: number,
    readonly keys: SessionKeys,
    /** Current epoch secret, for rekey. */
    readonly secret: Uint8Array,
    readonly counter: SequenceCounter,
    readonly expiresAt: number,
    /** Server clock minus local clock, ms. */
    readonly skew: number,
    readonly keyId: string | null,
  ) {}

  acquire(): this {
    this.inflight++;
    return this;
  }

  release(): void {
    this.inflight--;
    if (this.retired && this.inflight <= 0) this.#dispose();
  }

  retire(): void {
    if (this.retired) return;
    this.retired = true;
    if (this.inflight <= 0) this.#dispose();
  }

  /** The next epoch's session (same id, counter, expiry), after the server confirmed the rotate. */
  next(backend: Backend): SessionState {
    const secret = nextEpochSecret(backend, this.secret);
    return new SessionState(
      this.id,
      this.idStr,
      this.epoch + 1,
      new SessionKeys(backend, secret, this.epoch + 1),
      secret,
      this.counter,
      this.expiresAt,
      this.skew,
      this.keyId,
    );
  }

  #dispose(): void {
    this.keys.dispose();
    this.secret.fill(0);
  }

  get info(): NenSessionInfo {
    return { id: this.idStr, expiresAt: this.expiresAt, keyId: this.keyId, epoch: this.epoch };
  }
}

let warmed = false;

/**
 * Once per page, where the backend has WebCrypto's symmetric half (browsers; never on Node): while
 * the first ClientHello is in flight (the main thread idle), a zero-delay task derives epoch keys
 * from an all-zero secret, runs the confirmation's SHA-256 / HKDF-Extract / HMAC and seals a 1 KB
 * request of zeros under them, then disposes the keys: V8 compiles the code the first request runs
 * after the ServerHello during the round trip (bench/README.md "Browser", issue 21). Public
 * constants only: no secret, nothing sent.
 */
function warmDuringRoundTrip(be: Backend): void {
  const sym = be.asyncSymmetric;
  if (warmed || !sym) return;
  warmed = true;
  setTimeout(() => {
    const zero = new Uint8Array(32);
    const run = async () => {
      await sym.hmacSha256(await sym.hkdfExtract(await sym.sha256(zero), zero.slice()), zero);
      const keys = await SessionKeys.create(be, zero, 0);
      try {
        const body = new Uint8Array(1024);
        const input = {
          keys,
          sessionId: zero.subarray(0, 16),
          epoch: 0,
          seq: 0n,
          timestamp: 0,
          method: 'POST',
          url: new URL('https://nen.invalid/'),
          contentType: 'application/json',
          body,
        };
        await sealRequest(input);
      } finally {
        keys.dispose();
      }
    };
    run().catch(() => {});
  }, 0);
}

/** The session of one client: handshakes, the current session, replacement. */
export class Sessions {
  current: SessionState | null = null;
  #inflight: Promise<SessionState> | undefined;
  #backendP: Promise<Backend> | undefined;

  constructor(private readonly cfg: ClientConfig) {}

  backend(): Promise<Backend> {
    const b = this.cfg.options.backend;
    if (typeof b === 'object') return Promise.resolve(b);
    // the handshake runs on the backend's asyncKem where it has one: no sync KEMs needed (browsers
    // with WebCrypto's KEMs then never load @noble's ML-KEM chunk)
    this.#backendP ??= loadBackend(b ?? 'auto', { syncKem: false });
    this.#backendP.catch(() => {
      this.#backendP = undefined;
    });
    return this.#backendP;
  }

  /** The shared handshake (started when none is in flight). */
  handshake(): Promise<SessionState> {
    this.#inflight ??= this.#run().then(
      (s) => {
        this.install(s);
        this.#inflight = undefined;
        return s;
      },
      (e: unknown) => {
        this.#inflight = undefined;
        throw e;
      },
    );
    return this.#inflight;
  }

  /** The live session, or the (shared) handshake; the caller stops waiting when its signal fires. */
  ensure(signal: AbortSignal | null): Promise<SessionState> | SessionState {
    const s = this.current;
    if (s && s.expiresAt - Date.now() > 2000) return s;
    return untilAborted(this.handshake(), signal);
  }

  install(s: SessionState): void {
    const old = this.current;
    this.current = s;
    if (old && old !== s) old.retire();
  }

  /** Forgets `s` if it is still the current session (the next request re-handshakes). */
  invalidate(s: SessionState): void {
    if (this.current === s) {
      this.current = null;
      s.retire();
    }
  }

  /**
   * One handshake. With several pins, a `NEN_UNKNOWN_KEY_ID` answer (this server does not hold that
   * key id: before or after a rotation) moves on to the next pin; every other outcome is final. The
   * answer is unauthenticated, so an active attacker can at most make the client use another of its
   * own pins, all of which authenticate the server.
   */
  async #run(): Promise<SessionState> {
    const pins = this.cfg.pins;
    if (pins.length === 0) return this.#attempt(undefined);
    for (let i = 0; ; i++) {
      try {
        return await this.#attempt(pins[i]);
      } catch (e) {
        if (i + 1 < pins.length && e instanceof NenProtocolError && e.code === 'NEN_UNKNOWN_KEY_ID') continue;
        throw e;
      }
    }
  }

  async #attempt(pin: ServerKeyPin | undefined): Promise<SessionState> {
    const cfg = this.cfg;
    const be = await this.backend();
    const st = await clientHandshakeStartAsync(be, { kem: pin?.kem ?? cfg.unpinnedKem, ...(pin ? { pin } : {}), lifetime: cfg.lifetime });
    const url = cfg.resolveUrl(`${cfg.sessionPath}/handshake`);
    const t = deadline(null, cfg.timeoutMs);
    const t0 = Date.now();
    let res: Response;
    let buf: Uint8Array;
    try {
      const sent = cfg.fetch(url, {
        method: 'POST',
        headers: { 'content-type': MEDIA_TYPE.handshake },
        body: st.hello as Uint8Array<ArrayBuffer>,
        signal: t.signal,
      });
      warmDuringRoundTrip(be);
      res = await sent;
      // bounded, through the reader, like every response body (./transport.ts)
      buf = await readBodyLimited(res, cfg.maxResponseBytes, () => clientError('NEN_HANDSHAKE_FAILED', 'handshake response exceeds maxResponseBytes'));
    } catch (e) {
      st.dispose();
      throw t.map(e);
    } finally {
      t.done();
    }
    const t1 = Date.now();
    // the record (headers, hex) only when someone observes the exchanges: cold code on the path
    if (cfg.options.onExchange)
      report(cfg.options.onExchange, {
        kind: 'handshake',
        method: 'POST',
        url: url.href,
        requestHeaders: { 'content-type': MEDIA_TYPE.handshake },
        requestBodyLength: st.hello.length,
        requestBodyHex: head32(st.hello),
        status: res.status,
        responseHeaders: headersRecord(res.headers),
        responseBodyLength: buf.length,
        responseBodyHex: head32(buf),
      });
    if (!res.ok) {
      st.dispose();
      throw serverError(res, `handshake HTTP ${res.status}`);
    }
    if ((res.headers.get('content-type') ?? '').split(';')[0]!.trim() !== MEDIA_TYPE.handshake) {
      st.dispose();
      throw clientError('NEN_HANDSHAKE_FAILED', 'handshake response has the wrong content type');
    }
    const r: ClientHandshakeResult = await st.finish(buf);
    const skew = r.serverTime - Math.round((t0 + t1) / 2);
    const keys = await SessionKeys.create(be, r.secret, 0); // the epoch keys on WebCrypto's HKDF where the backend has it
    return new SessionState(r.sessionId, toBase64Url(r.sessionId), 0, keys, r.secret, new SequenceCounter(), t1 + r.lifetime * 1000, skew, r.kid ?? null);
  }
}
