/**
 * The crypto backend and the server's static keys, loaded once per `createNen()` on first use
 * (THREAT_MODEL.md property 3). Without NEN_SERVER_KEYS one X-Wing key is generated per process
 * (clients cannot pin it; a restart ends every session), with a warning.
 *
 * Pitfalls: a failed load is retried by the next call (not cached); `current` lets the request
 * path read the loaded state without an await; `close()` disposes the recipient keys.
 */
import { type Backend, KEM_ID, kemName, loadBackend, toBase64Url } from '@nen/core';
import type { ServerSettings } from './config.js';
import { type LoadedServerKey, loadServerKeys } from './keys.js';

export interface Keyring {
  readonly backend: Backend;
  readonly keys: LoadedServerKey[];
  readonly keyMap: Map<string, LoadedServerKey['recipient']>;
}

export interface PublicKeyInfo {
  kid: string;
  kem: 'xwing' | 'mlkem768';
  publicKey: string;
  pin: string;
}

export class KeyringLoader {
  #promise: Promise<Keyring> | undefined;
  /** The loaded keyring once `load()` resolved. */
  current: Keyring | undefined;

  constructor(private readonly s: ServerSettings) {}

  load(): Promise<Keyring> {
    this.#promise ??= this.#load();
    this.#promise.catch(() => {
      this.#promise = undefined;
    });
    return this.#promise;
  }

  async publicKeys(): Promise<PublicKeyInfo[]> {
    const st = await this.load();
    return st.keys.map((k) => ({ kid: k.kid, kem: kemName(k.kem), publicKey: toBase64Url(k.publicKey), pin: k.pin }));
  }

  async close(): Promise<void> {
    if (!this.#promise) return;
    const st = await this.#promise.catch(() => undefined);
    for (const k of st?.keys ?? []) k.recipient.dispose();
    this.#promise = undefined;
    this.current = undefined;
  }

  async #load(): Promise<Keyring> {
    const s = this.s;
    const backend = typeof s.backend === 'object' ? s.backend : await loadBackend(s.backend ?? 'auto');
    let specs = s.keySpecs;
    if (!specs) {
      const kp = backend.generateKeyPair(KEM_ID.XWING);
      specs = [{ kid: 'ephemeral', kem: KEM_ID.XWING, privateKey: kp.privateKey }];
      s.log({
        level: 'warn',
        event: 'config.ephemeral_key',
        reason: 'NEN_SERVER_KEYS is not set: using a per-process server key (clients cannot pin it; restarts end sessions)',
      });
    }
    const keys = loadServerKeys(backend, specs);
    const st: Keyring = { backend, keys, keyMap: new Map(keys.map((k) => [k.kid, k.recipient])) };
    this.current = st;
    return st;
  }
}
