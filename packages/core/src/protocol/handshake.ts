/**
 * The Nen one-round-trip handshake (PROTOCOL.md "Handshake"; THREAT_MODEL.md properties 1-3).
 *
 * Built on HPKE (RFC 9180) base mode used only through its secret export interface (§5.3):
 *  - the server encapsulates to the client's ephemeral public key: SetupBaseS(pk_eph,
 *    "nen/1 ephemeral") -> (enc_e, exported_e)  [forward secrecy];
 *  - with a pinned server key (KEMTLS-style server authentication), the client also encapsulates
 *    to the server's static key: SetupBaseS(pk_static, "nen/1 static") -> (enc_static, exported_s).
 *  Transcript hash TH = SHA-256("nen/1 transcript" || ClientHello || ServerHello-without-confirm);
 *  S_0 = HKDF-Extract(salt = TH, IKM = exported_e [|| exported_s]); confirm = HMAC-SHA256(
 *  HKDF-Expand(S_0, "nen/1 confirm", 32), TH).
 *
 * Pitfalls:
 *  - KEM decapsulation never fails (implicit rejection in ML-KEM, FIPS 203 §6.3): a substituted
 *    share or ciphertext silently yields another secret; only the confirm MAC detects it, so the
 *    client must check it (constant time) before using the session.
 *  - Without a pin, an active intermediary can run its own handshake with each side: only TLS
 *    authenticates the server then (THREAT_MODEL.md).
 *  - Parsing is strict: exact lengths, zero reserved flag bits, known version and KEM (the wire
 *    codecs are ./hello-codec.ts, re-exported here).
 *  - The server refuses a pk_eph equal to one of its static keys (docs/formal.md, finding F1).
 */
import type { Backend, HpkeRecipientKey, KemId } from '../backend/types.js';
import { KEM_ID, KEM_SIZES } from '../backend/types.js';
import { concatBytes, fromBase64Url, timingSafeEqual, toBase64Url } from './bytes.js';
import { clientError, wireError } from './codes.js';
import { CONFIRM_LENGTH, HS_FLAG, KEY_ID_PATTERN, LABEL, PROTOCOL_VERSION, SECRET_LENGTH, SESSION_ID_LENGTH } from './constants.js';
import {
  type ClientHello,
  SERVER_HELLO_FIXED,
  type ServerHello,
  decodeClientHello,
  decodeServerHello,
  encodeClientHello,
  writeServerHelloBody,
} from './hello-codec.js';

export type { ClientHello, ServerHello } from './hello-codec.js';
export { decodeClientHello, decodeServerHello, encodeClientHello, encodeServerHelloBody, isKemId, kemName } from './hello-codec.js';

export function transcriptHash(backend: Backend, clientHello: Uint8Array, serverHelloBody: Uint8Array): Uint8Array {
  return backend.sha256(concatBytes(LABEL.transcript, clientHello, serverHelloBody));
}

/** S_0 and the confirm MAC from the transcript hash and the exported HPKE secrets. */
export function deriveHandshakeSecrets(backend: Backend, th: Uint8Array, exportedE: Uint8Array, exportedS: Uint8Array | undefined) {
  const ikm = exportedS ? concatBytes(exportedE, exportedS) : exportedE;
  const secret = backend.hkdfExtract(th, ikm);
  const confirmKey = backend.hkdfExpand(secret, LABEL.confirm, CONFIRM_LENGTH);
  const confirm = backend.hmacSha256(confirmKey, th);
  confirmKey.fill(0);
  ikm.fill(0);
  return { secret, confirm };
}

/** A pinned server key: "kid:base64url(publicKey)"; the KEM follows from the key length. */
export interface ServerKeyPin {
  readonly kid: string;
  readonly kem: KemId;
  readonly publicKey: Uint8Array;
}

export function parseServerKeyPin(pin: string): ServerKeyPin {
  const i = pin.indexOf(':');
  const kid = i > 0 ? pin.slice(0, i) : '';
  if (!KEY_ID_PATTERN.test(kid)) throw clientError('NEN_BAD_SERVER_KEY', 'expected "kid:base64url(publicKey)"');
  const publicKey = fromBase64Url(pin.slice(i + 1));
  if (!publicKey) throw clientError('NEN_BAD_SERVER_KEY', 'public key is not base64url');
  const kem =
    publicKey.length === KEM_SIZES[KEM_ID.XWING].publicKey ? KEM_ID.XWING : publicKey.length === KEM_SIZES[KEM_ID.MLKEM768].publicKey ? KEM_ID.MLKEM768 : null;
  if (kem === null) throw clientError('NEN_BAD_SERVER_KEY', `public key length ${publicKey.length} is neither X-Wing nor ML-KEM-768`);
  return { kid, kem, publicKey };
}

export function formatServerKeyPin(kid: string, publicKey: Uint8Array): string {
  return `${kid}:${toBase64Url(publicKey)}`;
}

// ---------------------------------------------------------------- client side

export interface ClientHandshakeState extends Disposable {
  readonly hello: Uint8Array;
  readonly kem: KemId;
  readonly kid: string | undefined;
  /** Completes the handshake from the ServerHello bytes; disposes the ephemeral key. */
  finish(serverHello: Uint8Array): ClientHandshakeResult;
  dispose(): void;
}

export interface ClientHandshakeResult {
  readonly sessionId: Uint8Array;
  /** S_0: secret. */
  readonly secret: Uint8Array;
  readonly lifetime: number;
  readonly idleTimeout: number;
  readonly serverTime: number;
  readonly kid: string | undefined;
}

export function clientHandshakeStart(
  backend: Backend,
  options: { kem?: KemId; pin?: ServerKeyPin; lifetime?: number; ephemeralIkm?: Uint8Array },
): ClientHandshakeState {
  const kem = options.pin?.kem ?? options.kem ?? KEM_ID.XWING;
  const lifetime = options.lifetime ?? 0;
  if (!Number.isInteger(lifetime) || lifetime < 0 || lifetime > 0xffffffff) throw clientError('NEN_BAD_INPUT', 'lifetime must be a u32 number of seconds');
  const sk = ephemeralSeed(backend, kem, options.ephemeralIkm);
  let eph: HpkeRecipientKey;
  try {
    eph = backend.createRecipientKey(kem, sk);
  } finally {
    sk.fill(0);
  }
  let exportedS: Uint8Array | undefined;
  let hello: Uint8Array;
  try {
    const s = options.pin ? backend.setupBaseSExport(kem, options.pin.publicKey, LABEL.hpkeInfoStatic, LABEL.exporterContext, SECRET_LENGTH) : undefined;
    exportedS = s?.exported;
    hello = encodeClientHelloFor(kem, lifetime, eph.publicKey, options.pin, s?.enc);
  } catch (e) {
    eph.dispose();
    throw e;
  }
  let done = false;
  const dispose = () => {
    if (done) return;
    done = true;
    eph.dispose();
    exportedS?.fill(0);
  };
  return {
    hello,
    kem,
    kid: options.pin?.kid,
    finish(serverHelloBytes: Uint8Array): ClientHandshakeResult {
      if (done) throw clientError('NEN_HANDSHAKE_FAILED', 'handshake state already used');
      try {
        const sh = checkServerHello(serverHelloBytes, kem, options.pin);
        const exportedE = eph.setupBaseRExport(sh.encEph, LABEL.hpkeInfoEphemeral, LABEL.exporterContext, SECRET_LENGTH);
        return confirmServerHello(backend, { hello, serverHelloBytes, sh, exportedE, exportedS, lifetime, kid: options.pin?.kid });
      } finally {
        dispose();
      }
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}

/**
 * The ephemeral key's seed (HPKE private key form). GenerateKeyPair() of both KEMs is "draw a
 * uniformly random seed sk, expand it" (X-Wing: 32 bytes; ML-KEM-768 in draft-ietf-hpke-pq: d || z,
 * 64 bytes), and the recipient key expands its seed itself: drawing the seed here expands the
 * ephemeral key once instead of twice (~50 us of a Wasm X-Wing client handshake). `ikm`:
 * DeriveKeyPair, for the worked example / tests only. Secret: the caller wipes it.
 */
export function ephemeralSeed(backend: Backend, kem: KemId, ikm: Uint8Array | undefined): Uint8Array {
  if (ikm) return backend.deriveKeyPair(kem, ikm).privateKey;
  const seedLength = (KEM_SIZES as Partial<Record<number, { privateKey: number }>>)[kem]?.privateKey;
  // an unknown KEM id: the backend rejects it with its usual error
  if (seedLength === undefined) return backend.generateKeyPair(kem).privateKey;
  return backend.randomBytes(seedLength);
}

/** The ClientHello for the ephemeral public key (and, pinned, the encapsulation to the server key). */
export function encodeClientHelloFor(
  kem: KemId,
  lifetime: number,
  pkEph: Uint8Array,
  pin: ServerKeyPin | undefined,
  encStatic: Uint8Array | undefined,
): Uint8Array {
  if (!pin) return encodeClientHello({ version: PROTOCOL_VERSION, kem, flags: 0, lifetime, pkEph });
  return encodeClientHello({ version: PROTOCOL_VERSION, kem, flags: HS_FLAG.STATIC, lifetime, pkEph, kid: pin.kid, encStatic });
}

/** The client's checks of a ServerHello before decapsulating enc_e: length, version, KEM, flags. */
export function checkServerHello(serverHelloBytes: Uint8Array, kem: KemId, pin: ServerKeyPin | undefined): ServerHello {
  const sh = decodeServerHello(serverHelloBytes, kem);
  if (sh.flags !== (pin ? HS_FLAG.STATIC : 0)) throw clientError('NEN_HANDSHAKE_FAILED', 'ServerHello flags mismatch');
  return sh;
}

/** What §3.3's completion needs: both hellos' bytes, the decoded ServerHello, the exported secrets, the lifetime asked for and the pinned kid. */
export interface ServerHelloConfirmInput {
  hello: Uint8Array;
  serverHelloBytes: Uint8Array;
  sh: ServerHello;
  exportedE: Uint8Array;
  exportedS: Uint8Array | undefined;
  lifetime: number;
  kid: string | undefined;
}

/** TH, S_0 and the key confirmation (constant time), then the lifetime check; wipes exportedE. */
export function confirmServerHello(backend: Backend, p: ServerHelloConfirmInput): ClientHandshakeResult {
  const { sh, lifetime } = p;
  const th = transcriptHash(backend, p.hello, p.serverHelloBytes.subarray(0, p.serverHelloBytes.length - CONFIRM_LENGTH));
  const { secret, confirm } = deriveHandshakeSecrets(backend, th, p.exportedE, p.exportedS ? p.exportedS.slice() : undefined);
  p.exportedE.fill(0);
  return acceptServerHello(sh, confirm, secret, lifetime, p.kid);
}

/**
 * §3.3's last checks, shared by the sync and async clients: `confirm` (derived here) equals the
 * ServerHello's in constant time, and a requested lifetime L > 0 was not exceeded; else
 * NEN_HANDSHAKE_FAILED with `secret` wiped.
 */
export function acceptServerHello(sh: ServerHello, confirm: Uint8Array, secret: Uint8Array, lifetime: number, kid: string | undefined): ClientHandshakeResult {
  if (!timingSafeEqual(confirm, sh.confirm)) {
    secret.fill(0);
    throw clientError('NEN_HANDSHAKE_FAILED', 'key confirmation failed (substituted share or server key)');
  }
  if (lifetime > 0 && sh.lifetime > lifetime) {
    secret.fill(0);
    throw clientError('NEN_HANDSHAKE_FAILED', 'server granted a longer lifetime than requested');
  }
  return { sessionId: sh.sessionId, secret, lifetime: sh.lifetime, idleTimeout: sh.idleTimeout, serverTime: sh.serverTime, kid };
}

// ---------------------------------------------------------------- server side

export interface ServerHandshakeParams {
  /** Static server keys by key id (recipient keys loaded from NEN_SERVER_KEYS). */
  readonly keys: ReadonlyMap<string, HpkeRecipientKey>;
  readonly sessionId: Uint8Array;
  /** Server default/maximum lifetime, seconds. */
  readonly maxLifetime: number;
  readonly idleTimeout: number;
  readonly now: number;
  /** Deterministic encapsulation is not in the Backend interface; tests pass nothing. */
}

export interface ServerHandshakeResult {
  readonly response: Uint8Array;
  readonly secret: Uint8Array;
  readonly hello: ClientHello;
  readonly lifetime: number;
}

/** Public keys are public: an early-exit comparison leaks nothing. */
function equalPublicKeys(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Server step: parse the ClientHello, encapsulate, derive S_0, build the ServerHello. */
export function serverHandshake(backend: Backend, clientHelloBytes: Uint8Array, p: ServerHandshakeParams): ServerHandshakeResult {
  if (p.sessionId.length !== SESSION_ID_LENGTH) throw new RangeError('nen: session id must be 16 bytes');
  const hello = decodeClientHello(clientHelloBytes);
  // PROTOCOL.md §3.2 check order: the kid (live, same KEM) before anything about the key shares.
  let staticKey: HpkeRecipientKey | undefined;
  if (hello.flags & HS_FLAG.STATIC) {
    staticKey = p.keys.get(hello.kid as string);
    if (!staticKey) throw wireError('NEN_UNKNOWN_KEY_ID', `no live server key with id ${JSON.stringify(hello.kid)}`);
    if (staticKey.kem !== hello.kem) throw wireError('NEN_UNSUPPORTED_KEM', `server key ${hello.kid} is not for KEM 0x${hello.kem.toString(16)}`);
  }
  // A pk_eph equal to one of the server's static keys is refused (finding F1 of docs/formal.md:
  // the ProVerif proofs assume it; a genuine client never sends one).
  for (const key of p.keys.values()) {
    if (key.kem === hello.kem && equalPublicKeys(key.publicKey, hello.pkEph)) {
      throw wireError('NEN_MALFORMED', 'pk_eph is a server static public key');
    }
  }
  let exportedS: Uint8Array | undefined;
  if (staticKey) {
    try {
      exportedS = staticKey.setupBaseRExport(hello.encStatic as Uint8Array, LABEL.hpkeInfoStatic, LABEL.exporterContext, SECRET_LENGTH);
    } catch (err) {
      // e.g. an X25519 share that decodes to a low-order point: reject as malformed input.
      throw wireError('NEN_MALFORMED', 'invalid enc_static', err);
    }
  }
  let e;
  try {
    e = backend.setupBaseSExport(hello.kem, hello.pkEph, LABEL.hpkeInfoEphemeral, LABEL.exporterContext, SECRET_LENGTH);
  } catch (err) {
    exportedS?.fill(0);
    throw wireError('NEN_MALFORMED', 'invalid ephemeral public key', err);
  }
  const lifetime = hello.lifetime > 0 ? Math.min(hello.lifetime, p.maxLifetime) : p.maxLifetime;
  // One array holds TH's input and the answer: "nen/1 transcript" || ClientHello || ServerHello
  // body || confirm. The ServerHello is its tail: no body copy for TH, none to append the confirm
  // (the same bytes as encodeServerHelloBody + transcriptHash; issue 21: 2.3 KB and 7 arrays less).
  const at = LABEL.transcript.length + clientHelloBytes.length;
  const buf = new Uint8Array(at + SERVER_HELLO_FIXED + e.enc.length + CONFIRM_LENGTH);
  buf.set(LABEL.transcript, 0);
  buf.set(clientHelloBytes, LABEL.transcript.length);
  writeServerHelloBody(buf, at, {
    version: PROTOCOL_VERSION,
    kem: hello.kem,
    flags: hello.flags & HS_FLAG.STATIC,
    sessionId: p.sessionId,
    lifetime,
    idleTimeout: p.idleTimeout,
    serverTime: p.now,
    encEph: e.enc,
  });
  const end = buf.length - CONFIRM_LENGTH;
  const th = backend.sha256(buf.subarray(0, end));
  const { secret, confirm } = deriveHandshakeSecrets(backend, th, e.exported, exportedS);
  e.exported.fill(0);
  buf.set(confirm, end);
  return { response: buf.subarray(at), secret, hello, lifetime };
}
