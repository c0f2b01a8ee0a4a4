/**
 * Sealed webhooks: the body is an armored age file sealed to the receiver's key; the sender is
 * authenticated with Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`):
 *
 *   signed content = `${id}.${timestamp}.${body}`          (timestamp: Unix seconds)
 *   "v1,"          + base64(HMAC-SHA256(secret, content))    (Standard Webhooks symmetric)
 *   "nen-mldsa65," + base64(ML-DSA-65 signature, context "nen-seal/webhook/v1") (post-quantum)
 *
 * Several signatures are space separated; standard verifiers skip versions they do not know.
 *
 * withNenWebhook(handler, opts) checks, in order: headers present and well-formed, the signature
 * header a list of `version,base64` entries (400 NEN_SEAL_WEBHOOK_HEADERS), timestamp within ±tolerance (401 NEN_SEAL_WEBHOOK_TIMESTAMP), body
 * size, every configured signature (HMAC secret and/or pinned ML-DSA-65 key; 401
 * NEN_SEAL_WEBHOOK_SIGNATURE), the id claimed once in the replay store (409
 * NEN_SEAL_WEBHOOK_REPLAY), the body opened (400 NEN_SEAL_WEBHOOK_BODY) — and only then runs the
 * handler.
 *
 * Pitfalls: sealing gives confidentiality only; the signature is what authenticates the sender
 * (an HMAC secret is shared, so the receiver could forge; ML-DSA-65 is not). The id is claimed
 * only after the signature verifies, so forged requests cannot burn ids.
 */
import { type Backend, joinChunks } from '@nen/core';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { getBackend, open, seal, toIdentities, type IdentityInput, type RecipientInput } from './age.js';
import { timingSafeEqual, utf8 } from './bytes.js';
import { decodeBase64, encodeBase64 } from './encoding.js';
import { NenSealError, type SealErrorCode } from './errors.js';
import type { ReplayStore } from './replay.js';

const MLDSA_VERSION = 'nen-mldsa65';
const MLDSA_CONTEXT = utf8('nen-seal/webhook/v1');
const DEFAULT_TOLERANCE_S = 300;
const DEFAULT_MAX_BODY = 1 << 20;

export interface WebhookSenderOptions {
  /** The receiver's key(s): age1pq1… / Nen pin. */
  recipients: RecipientInput | readonly RecipientInput[];
  /** Standard Webhooks secret `whsec_<base64>`. */
  hmacSecret?: string;
  /** The sender's ML-DSA-65 secret key (4032 bytes). */
  mldsaSecretKey?: Uint8Array;
  backend?: Backend;
}

export interface SealedWebhook {
  readonly id: string;
  readonly timestamp: number;
  /** The armored age file (ASCII). */
  readonly body: string;
  readonly headers: Record<string, string>;
}

function hmacKey(secret: string): Uint8Array {
  const b64 = secret.startsWith('whsec_') ? secret.slice(6) : secret;
  const key = decodeBase64(b64, true) ?? decodeBase64(b64, false);
  if (!key || key.length < 16) throw new NenSealError('NEN_SEAL_KEY', 'nen: the webhook secret must be whsec_<base64 of 16+ bytes>');
  return key;
}

const signedContent = (id: string, ts: number | string, body: string) => utf8(`${id}.${ts}.${body}`);

/** A fresh ML-DSA-65 key pair for webhook signing (keep the secret key on the sender only). */
export function generateWebhookSigningKey(): { publicKey: Uint8Array; secretKey: Uint8Array } {
  return ml_dsa65.keygen(crypto.getRandomValues(new Uint8Array(32)));
}

/** Seals `payload` (bytes, string, or a JSON value) for the receiver and signs the delivery. */
export async function sealWebhook(payload: unknown, opts: WebhookSenderOptions, meta: { id?: string; timestamp?: number } = {}): Promise<SealedWebhook> {
  if (!opts.hmacSecret && !opts.mldsaSecretKey) throw new NenSealError('NEN_SEAL_KEY', 'nen: sealWebhook needs hmacSecret and/or mldsaSecretKey');
  const b = await getBackend(opts.backend);
  const bytes = payload instanceof Uint8Array ? payload : utf8(typeof payload === 'string' ? payload : JSON.stringify(payload));
  const body = new TextDecoder().decode(await seal(bytes, opts.recipients, { armor: true, backend: b }));
  const id = meta.id ?? `msg_${encodeBase64(b.randomBytes(18)).replace(/[+/]/g, 'x')}`;
  const timestamp = meta.timestamp ?? Math.floor(Date.now() / 1000);
  const content = signedContent(id, timestamp, body);
  const sigs: string[] = [];
  if (opts.hmacSecret) sigs.push(`v1,${encodeBase64(hmac(sha256, hmacKey(opts.hmacSecret), content), true)}`);
  if (opts.mldsaSecretKey) sigs.push(`${MLDSA_VERSION},${encodeBase64(ml_dsa65.sign(content, opts.mldsaSecretKey, { context: MLDSA_CONTEXT }), true)}`);
  return {
    id,
    timestamp,
    body,
    headers: { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sigs.join(' '), 'content-type': 'text/plain; charset=us-ascii' },
  };
}

export interface WebhookReceiverOptions {
  /**
   * The receiver's identity: AGE-SECRET-KEY-PQ-1…, a Nen server key entry, or a whole
   * NEN_SERVER_KEYS value: during a rotation it holds the old and the new key, and a delivery
   * sealed to either opens.
   */
  identity: IdentityInput | readonly IdentityInput[];
  /** Standard Webhooks secret; when set, a valid v1 signature is required. */
  hmacSecret?: string;
  /** The pinned sender ML-DSA-65 public key (1952 bytes); when set, a valid signature is required. */
  senderPublicKey?: Uint8Array;
  /** Where webhook ids are claimed: a MemoryReplayStore, a RedisReplayStore, or the session store of @nen/server (`nen.store`). */
  store: ReplayStore;
  toleranceSeconds?: number;
  maxBodyBytes?: number;
  /** Clock (ms), for tests. */
  now?: () => number;
  backend?: Backend;
}

export interface WebhookPayload {
  readonly bytes: Uint8Array;
  text(): string;
  json<T = unknown>(): T;
}

export interface WebhookContext {
  readonly id: string;
  readonly timestamp: number;
  readonly request: Request;
}

export type WebhookHandler = (payload: WebhookPayload, ctx: WebhookContext) => unknown | Promise<unknown>;

const STATUS: Partial<Record<SealErrorCode, number>> = {
  NEN_SEAL_WEBHOOK_HEADERS: 400,
  NEN_SEAL_WEBHOOK_TIMESTAMP: 401,
  NEN_SEAL_WEBHOOK_SIGNATURE: 401,
  NEN_SEAL_WEBHOOK_REPLAY: 409,
  NEN_SEAL_WEBHOOK_BODY: 400,
  NEN_SEAL_LIMIT: 413,
  NEN_SEAL_UNAVAILABLE: 503,
};

const refuse = (code: SealErrorCode, msg: string) => new NenSealError(code, `nen: webhook refused: ${msg}`);

const MAX_SIGNATURE_HEADER = 16 * 1024; // room for several v1 and nen-mldsa65 (4,412 characters) entries
const SIGNATURE_ENTRY = /^[A-Za-z0-9._-]+,[A-Za-z0-9+/]+={0,2}$/;

/**
 * The `webhook-signature` list: space-separated `version,base64(signature)` entries. A header
 * that is not such a list is malformed (400 NEN_SEAL_WEBHOOK_HEADERS), before any crypto.
 */
function parseSignatures(header: string): { version: string; value: Uint8Array | null }[] {
  const entries = header.split(' ').filter((e) => e !== '');
  if (header.length > MAX_SIGNATURE_HEADER || entries.length === 0 || !entries.every((e) => SIGNATURE_ENTRY.test(e)))
    throw refuse('NEN_SEAL_WEBHOOK_HEADERS', 'malformed webhook-signature (expected space-separated version,base64 entries)');
  return entries.map((e) => {
    const i = e.indexOf(',');
    return { version: e.slice(0, i), value: decodeBase64(e.slice(i + 1), true) };
  });
}

function checkSignatures(o: WebhookReceiverOptions, sigs: { version: string; value: Uint8Array | null }[], content: Uint8Array): void {
  if (o.hmacSecret) {
    const mac = hmac(sha256, hmacKey(o.hmacSecret), content);
    if (!sigs.some((s) => s.version === 'v1' && s.value && timingSafeEqual(s.value, mac)))
      throw refuse('NEN_SEAL_WEBHOOK_SIGNATURE', 'no valid v1 (HMAC) signature');
  }
  if (o.senderPublicKey) {
    const pk = o.senderPublicKey;
    const ok = sigs.some((s) => {
      if (s.version !== MLDSA_VERSION || !s.value) return false;
      try {
        return ml_dsa65.verify(s.value, content, pk, { context: MLDSA_CONTEXT });
      } catch {
        return false;
      }
    });
    if (!ok) throw refuse('NEN_SEAL_WEBHOOK_SIGNATURE', `no valid ${MLDSA_VERSION} signature from the pinned sender key`);
  }
}

async function readBounded(request: Request, max: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > max) throw new NenSealError('NEN_SEAL_LIMIT', 'nen: webhook body too large');
  const chunks: Uint8Array[] = [];
  let n = 0;
  if (request.body) {
    for await (const c of request.body as unknown as AsyncIterable<Uint8Array>) {
      n += c.length;
      if (n > max) throw new NenSealError('NEN_SEAL_LIMIT', 'nen: webhook body too large');
      chunks.push(c);
    }
  }
  return new TextDecoder().decode(joinChunks(chunks));
}

async function verifyDelivery(o: WebhookReceiverOptions, request: Request): Promise<{ id: string; timestamp: number; body: string }> {
  const id = request.headers.get('webhook-id');
  const ts = request.headers.get('webhook-timestamp');
  const sig = request.headers.get('webhook-signature');
  if (!id || !ts || !sig || id.length > 256 || !/^[1-9][0-9]{0,11}$/.test(ts))
    throw refuse('NEN_SEAL_WEBHOOK_HEADERS', 'missing or malformed webhook-id / webhook-timestamp / webhook-signature');
  const timestamp = Number(ts);
  const now = Math.floor((o.now ?? Date.now)() / 1000);
  const tol = o.toleranceSeconds ?? DEFAULT_TOLERANCE_S;
  const sigs = parseSignatures(sig);
  if (Math.abs(now - timestamp) > tol) throw refuse('NEN_SEAL_WEBHOOK_TIMESTAMP', 'timestamp outside the accepted window');
  const body = await readBounded(request, o.maxBodyBytes ?? DEFAULT_MAX_BODY);
  checkSignatures(o, sigs, signedContent(id, ts, body));
  let first: boolean;
  try {
    first = await o.store.claimOnce(`webhook:${id}`, 2 * tol * 1000 + 1000);
  } catch (e) {
    // Fail closed: without the store a replay cannot be ruled out.
    throw new NenSealError('NEN_SEAL_UNAVAILABLE', 'nen: webhook replay store unavailable', { cause: e });
  }
  if (!first) throw refuse('NEN_SEAL_WEBHOOK_REPLAY', 'this webhook-id was already delivered');
  return { id, timestamp, body };
}

/** An App Router route handler (Request → Response) that verifies, de-duplicates and opens sealed webhooks. */
export function withNenWebhook(handler: WebhookHandler, opts: WebhookReceiverOptions): (request: Request) => Promise<Response> {
  if (!opts.hmacSecret && !opts.senderPublicKey) throw new NenSealError('NEN_SEAL_KEY', 'nen: withNenWebhook needs hmacSecret and/or senderPublicKey');
  const ids = toIdentities(opts.identity);
  if (opts.hmacSecret) hmacKey(opts.hmacSecret);
  return async (request) => {
    let delivery: { id: string; timestamp: number; body: string };
    let bytes: Uint8Array;
    try {
      delivery = await verifyDelivery(opts, request);
      try {
        bytes = await open(delivery.body, ids, { armor: true, backend: await getBackend(opts.backend) });
      } catch (e) {
        throw refuse('NEN_SEAL_WEBHOOK_BODY', `sealed body does not open (${e instanceof NenSealError ? e.code : 'error'})`);
      }
    } catch (e) {
      if (!(e instanceof NenSealError)) throw e;
      return Response.json({ error: e.code, message: e.message }, { status: STATUS[e.code] ?? 400 });
    }
    const payload: WebhookPayload = {
      bytes,
      text: () => new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      json: <T>() => JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as T,
    };
    const result = await handler(payload, { id: delivery.id, timestamp: delivery.timestamp, request });
    return result instanceof Response ? result : result === undefined ? new Response(null, { status: 204 }) : Response.json(result);
  };
}
