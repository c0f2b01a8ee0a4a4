/**
 * The gateway's OHTTP key configuration on the client, pinned (RFC 9458 §3, §7 key consistency):
 * either the whole Key Config is given (base64url or bytes: pinned by value, nothing fetched), or
 * one or more `sha256:<base64url>` digests of an encoded Key Config are given with `keyConfigUrl`
 * (the gateway's `application/ohttp-keys` resource, e.g. /.well-known/ohttp-gateway, RFC 9540)
 * and only a fetched config whose digest matches a pin is used.
 *
 * Pitfalls:
 *  - A relay or any other party that serves another config (a substituted key, or a config per
 *    client to split the anonymity set) fails the pin: NEN_OHTTP_KEY_MISMATCH, nothing is sent.
 *  - X25519 (0x0020) is not post-quantum: refused unless `allowClassical` (NEN_OHTTP_KEY_MISMATCH).
 *  - After NEN_OHTTP_KEY_UNKNOWN (a rotation) a fetched config is refetched once; a config pinned
 *    by value cannot change (the error is thrown).
 *  - That refetch (any fetch after `refresh()`) asks for revalidation, `cache: 'no-cache'`: the
 *    list is served `max-age=3600`, and a browser's HTTP cache would otherwise hand back the
 *    retired list for up to an hour. The first fetch may come from a cache (one list for all is
 *    key consistency). No request header is added (a cross-origin GET stays preflight-free).
 *    `cache` is passed only where the runtime's Request takes it: workerd before compatibility
 *    date 2025-08-07 throws on 'no-cache' (`revalidates()`, checked once per process).
 *  - A config given as base64url is parsed once per process (`parseOnce`, bounded): a fresh client
 *    per request (a CLI, a serverless call) does not decode and parse its ~1.6 KB again. The
 *    parsed config is shared and never mutated; bytes given by the caller are parsed each time.
 */
import { type NenProtocolError, clientError, fromBase64Url, toBase64Url } from '@nen/core';
import { OHTTP_KEM_INFO, OHTTP_MEDIA, type OhttpKeyConfig, encodeKeyConfig, parseKeyConfig, parseKeyConfigs } from '@nen/core/ohttp/client';

export interface KeyConfigOptions {
  readonly keyConfig: string | Uint8Array | readonly string[];
  readonly keyConfigUrl?: URL;
  readonly allowClassical: boolean;
  readonly fetch: typeof fetch;
}

const PIN = /^sha256:([A-Za-z0-9_-]{43})$/;

/** Key Configs given as base64url, parsed once per process (bounded: the few gateways a process talks to; public values). */
const PARSED_MAX = 8;
const parsed = new Map<string, OhttpKeyConfig>();
function parseOnce(b64: string): OhttpKeyConfig {
  let c = parsed.get(b64);
  if (!c) {
    c = parseKeyConfig(fromBase64Url(b64) ?? new Uint8Array(0));
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value as string);
    parsed.set(b64, c);
  }
  return c;
}

/** The pin of a Key Config: `sha256:` + base64url(SHA-256(encoded Key Config)). */
export async function keyConfigPin(config: OhttpKeyConfig): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', encodeKeyConfig(config) as Uint8Array<ArrayBuffer>);
  return `sha256:${toBase64Url(new Uint8Array(d))}`;
}

/** Whether this runtime's Request takes `cache: 'no-cache'` (browsers, Node's undici, workerd from 2025-08-07). */
let noCacheMode: boolean | undefined;
function revalidates(url: URL): boolean {
  if (noCacheMode === undefined) {
    try {
      noCacheMode = new Request(url, { cache: 'no-cache' }).cache === 'no-cache';
    } catch {
      noCacheMode = false; // older workerd: "not implemented" / "Unsupported cache mode"
    }
  }
  return noCacheMode;
}

function mismatch(detail: string): NenProtocolError {
  return clientError('NEN_OHTTP_KEY_MISMATCH', detail);
}

export class PinnedKeyConfig {
  readonly #o: KeyConfigOptions;
  readonly #pins: readonly string[] | null;
  readonly #fixed: OhttpKeyConfig | null;
  #fetched: Promise<OhttpKeyConfig> | null = null;
  /** Set by refresh(): later fetches revalidate past any HTTP cache. */
  #revalidate = false;

  constructor(o: KeyConfigOptions) {
    this.#o = o;
    const list = typeof o.keyConfig === 'string' ? [o.keyConfig] : o.keyConfig instanceof Uint8Array ? null : o.keyConfig;
    if (list && list.length > 0 && list.every((p) => PIN.test(p))) {
      if (!o.keyConfigUrl) throw clientError('NEN_BAD_INPUT', 'a sha256: key config pin needs keyConfigUrl (where the gateway serves application/ohttp-keys)');
      this.#pins = list;
      this.#fixed = null;
      return;
    }
    let config: OhttpKeyConfig;
    if (o.keyConfig instanceof Uint8Array) config = parseKeyConfig(o.keyConfig);
    else if (list?.length === 1) config = parseOnce(list[0] as string);
    else throw clientError('NEN_BAD_INPUT', 'keyConfig must be one Key Config (base64url or bytes) or 1-16 "sha256:<base64url>" pins');
    this.#fixed = this.#checkKem(config);
    this.#pins = null;
  }

  #checkKem(c: OhttpKeyConfig): OhttpKeyConfig {
    if (!OHTTP_KEM_INFO[c.kemId].pq && !this.#o.allowClassical) {
      throw mismatch('the key config is X25519 (not post-quantum); pass allowClassical: true to accept it');
    }
    return c;
  }

  /** The config to encapsulate to. */
  get(): Promise<OhttpKeyConfig> {
    if (this.#fixed) return Promise.resolve(this.#fixed);
    this.#fetched ??= this.#fetch().catch((e: unknown) => {
      this.#fetched = null;
      throw e;
    });
    return this.#fetched;
  }

  /** After NEN_OHTTP_KEY_UNKNOWN: true when a fresh config will be fetched (once per call). */
  refresh(): boolean {
    if (this.#fixed) return false;
    this.#fetched = null;
    this.#revalidate = true;
    return true;
  }

  async #fetch(): Promise<OhttpKeyConfig> {
    const url = this.#o.keyConfigUrl as URL;
    const init: RequestInit = { headers: { accept: OHTTP_MEDIA.KEYS } };
    if (this.#revalidate && revalidates(url)) init.cache = 'no-cache';
    const res = await this.#o.fetch(url, init);
    const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (res.status !== 200 || type !== OHTTP_MEDIA.KEYS) {
      await res.body?.cancel().catch(() => undefined);
      throw mismatch(`the key config URL answered ${res.status} ${type ?? ''}`);
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > 64 * 1024) throw mismatch('the application/ohttp-keys body is over 64 KiB');
    const configs = parseKeyConfigs(bytes);
    const byPin = new Map<string, OhttpKeyConfig>();
    for (const c of configs) byPin.set(await keyConfigPin(c), c);
    for (const pin of this.#pins as readonly string[]) {
      const c = byPin.get(pin);
      if (c) return this.#checkKem(c);
    }
    throw mismatch('no served key config matches a pinned digest');
  }
}
