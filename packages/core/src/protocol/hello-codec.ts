/**
 * The handshake's two messages on the wire (PROTOCOL.md "Handshake"): ClientHello and ServerHello
 * encoders and strict parsers, and the KEM ids they carry. ./handshake.ts runs the handshake on
 * them and re-exports what is public.
 *
 * Pitfalls:
 *  - Parsing is strict: exact lengths, zero reserved flag bits, known version and KEM; a kid is
 *    UTF-8 and matches KEY_ID_PATTERN. ClientHello errors are the server's (wireError, a 4xx),
 *    ServerHello errors the client's (NEN_HANDSHAKE_FAILED).
 *  - writeServerHelloBody writes at an offset into the caller's array (serverHandshake puts the
 *    body inside TH's input): the fixed part is SERVER_HELLO_FIXED bytes, enc_eph follows it.
 */
import type { KemId } from '../backend/types.js';
import { KEM_ID, KEM_SIZES } from '../backend/types.js';
import { concatBytes, fromUtf8, u16, u32, u8, utf8 } from './bytes.js';
import { clientError, wireError } from './codes.js';
import { CONFIRM_LENGTH, HS_FLAG, KEY_ID_PATTERN, PROTOCOL_VERSION, SESSION_ID_LENGTH } from './constants.js';

export interface ClientHello {
  readonly version: number;
  readonly kem: KemId;
  readonly flags: number;
  /** Requested session lifetime in seconds; 0 = the server's default. */
  readonly lifetime: number;
  readonly pkEph: Uint8Array;
  readonly kid?: string;
  readonly encStatic?: Uint8Array;
}

export interface ServerHello {
  readonly version: number;
  readonly kem: KemId;
  readonly flags: number;
  readonly sessionId: Uint8Array;
  /** Granted lifetime, seconds. */
  readonly lifetime: number;
  /** Idle timeout, seconds. */
  readonly idleTimeout: number;
  /** Server clock, ms since the Unix epoch. */
  readonly serverTime: number;
  readonly encEph: Uint8Array;
  readonly confirm: Uint8Array;
}

export function isKemId(v: number): v is KemId {
  return v === KEM_ID.XWING || v === KEM_ID.MLKEM768;
}

export function kemName(kem: KemId): 'xwing' | 'mlkem768' {
  return kem === KEM_ID.XWING ? 'xwing' : 'mlkem768';
}

export function encodeClientHello(h: ClientHello): Uint8Array {
  const parts = [u8(h.version), u16(h.kem), u8(h.flags), u32(h.lifetime), h.pkEph];
  if (h.flags & HS_FLAG.STATIC) {
    if (!h.kid || !h.encStatic) throw new RangeError('nen: STATIC flag needs kid and encStatic');
    const kid = utf8(h.kid);
    parts.push(u8(kid.length), kid, h.encStatic);
  }
  return concatBytes(...parts);
}

/** Strict ClientHello parser; throws NenProtocolError (NEN_MALFORMED / NEN_UNSUPPORTED_*). */
export function decodeClientHello(b: Uint8Array): ClientHello {
  if (b.length < 8) throw wireError('NEN_MALFORMED', `ClientHello too short (${b.length} bytes)`);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = dv.getUint8(0);
  if (version !== PROTOCOL_VERSION) throw wireError('NEN_UNSUPPORTED_VERSION', `ClientHello version ${version}`);
  const kem = dv.getUint16(1);
  if (!isKemId(kem)) throw wireError('NEN_UNSUPPORTED_KEM', `ClientHello KEM 0x${kem.toString(16)}`);
  const flags = dv.getUint8(3);
  if (flags & ~HS_FLAG.STATIC) throw wireError('NEN_MALFORMED', `ClientHello reserved flag bits set (${flags})`);
  const lifetime = dv.getUint32(4);
  const sizes = KEM_SIZES[kem];
  let o = 8;
  if (b.length < o + sizes.publicKey) throw wireError('NEN_MALFORMED', 'ClientHello truncated pk_eph');
  const pkEph = b.slice(o, o + sizes.publicKey);
  o += sizes.publicKey;
  if (!(flags & HS_FLAG.STATIC)) {
    if (o !== b.length) throw wireError('NEN_MALFORMED', `ClientHello has ${b.length - o} trailing bytes`);
    return { version, kem, flags, lifetime, pkEph };
  }
  if (b.length < o + 1) throw wireError('NEN_MALFORMED', 'ClientHello truncated kid length');
  const kidLen = dv.getUint8(o);
  o += 1;
  if (kidLen < 1 || b.length < o + kidLen) throw wireError('NEN_MALFORMED', 'ClientHello bad kid length');
  let kid: string;
  try {
    kid = fromUtf8(b.subarray(o, o + kidLen));
  } catch {
    throw wireError('NEN_MALFORMED', 'ClientHello kid is not UTF-8');
  }
  if (!KEY_ID_PATTERN.test(kid)) throw wireError('NEN_MALFORMED', 'ClientHello kid has invalid characters');
  o += kidLen;
  if (b.length !== o + sizes.enc) throw wireError('NEN_MALFORMED', `ClientHello enc_static length ${b.length - o}, want ${sizes.enc}`);
  const encStatic = b.slice(o);
  return { version, kem, flags, lifetime, pkEph, kid, encStatic };
}

/** The ServerHello body's fixed part: version, kem, flags, session_id, lifetime, idle_timeout, server_time. */
export const SERVER_HELLO_FIXED = 36;

/** ServerHello without the trailing confirm (the part covered by TH). */
export function encodeServerHelloBody(h: Omit<ServerHello, 'confirm'>): Uint8Array {
  const out = new Uint8Array(SERVER_HELLO_FIXED + h.encEph.length);
  writeServerHelloBody(out, 0, h);
  return out;
}

/** The ServerHello body written into `out` at `at` (serverHandshake writes it inside TH's input). */
export function writeServerHelloBody(out: Uint8Array, at: number, h: Omit<ServerHello, 'confirm'>): void {
  if (h.sessionId.length !== SESSION_ID_LENGTH) throw new RangeError(`nen: session_id must be ${SESSION_ID_LENGTH} bytes`);
  const dv = new DataView(out.buffer, out.byteOffset + at, SERVER_HELLO_FIXED);
  dv.setUint8(0, h.version);
  dv.setUint16(1, h.kem);
  dv.setUint8(3, h.flags);
  out.set(h.sessionId, at + 4);
  dv.setUint32(20, h.lifetime >>> 0);
  dv.setUint32(24, h.idleTimeout >>> 0);
  dv.setBigUint64(28, BigInt(h.serverTime));
  out.set(h.encEph, at + SERVER_HELLO_FIXED);
}

export function decodeServerHello(b: Uint8Array, expectedKem: KemId): ServerHello {
  const size = SERVER_HELLO_FIXED + KEM_SIZES[expectedKem].enc + CONFIRM_LENGTH;
  if (b.length !== size) throw clientError('NEN_HANDSHAKE_FAILED', `ServerHello is ${b.length} bytes, want ${size}`);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = dv.getUint8(0);
  const kem = dv.getUint16(1);
  if (version !== PROTOCOL_VERSION || kem !== expectedKem) throw clientError('NEN_HANDSHAKE_FAILED', 'ServerHello version/KEM mismatch');
  const flags = dv.getUint8(3);
  const sessionId = b.slice(4, 20);
  const lifetime = dv.getUint32(20);
  const idleTimeout = dv.getUint32(24);
  const serverTime = Number(dv.getBigUint64(28));
  const encEph = b.slice(SERVER_HELLO_FIXED, SERVER_HELLO_FIXED + KEM_SIZES[kem].enc);
  const confirm = b.slice(b.length - CONFIRM_LENGTH);
  return { version, kem, flags, sessionId, lifetime, idleTimeout, serverTime, encEph, confirm };
}
