/**
 * Backend selection: `loadBackend(kind)` for each runtime entry point (Node, Edge, browser).
 *
 * 'auto' picks the backend each runtime is best served by: on Node.js the node backend
 * (node:crypto AEAD/HKDF + Wasm KEM/HPKE), on Edge runtimes the Wasm backend (if Wasm cannot
 * load, e.g. a Content-Security-Policy without 'wasm-unsafe-eval', it falls back to @noble with a
 * one-time console.warn), in browsers @noble (`auto: 'noble'`: the page pays ~31 KB gzip of JS
 * before its first encrypted response, ~39 KB where WebCrypto lacks ML-KEM, `node
 * bench/browser/size.js`; the .wasm would add ~91 KB gzip; 'wasm' stays available on request,
 * for large bodies and streams: bench/README.md "Browser"). All backends are byte-identical
 * (cross-tested).
 *
 * Pitfalls:
 *  - Results are cached per kind and `syncKem` (at most eight entries), a failed load is not
 *    cached, so a transient failure can be retried.
 *  - `{ syncKem: false }` (the client's session handshake, which runs on `asyncKem` where the
 *    backend has it): a runtime whose @noble backend has async KEMs (browsers with WebCrypto's
 *    ML-KEM-768 and X25519) may resolve without loading @noble's ML-KEM / X25519 code; that
 *    backend's synchronous KEM methods then throw NEN_CRYPTO_UNSUPPORTED until a complete backend
 *    has been loaded (any call without the option). Ignored elsewhere.
 *  - An explicitly requested kind never falls back: 'wasm' that cannot load rejects with
 *    NenCryptoError('NEN_CRYPTO_UNSUPPORTED').
 */
import { NenCryptoError } from '../errors.js';
import type { Backend } from './types.js';

export type BackendKind = 'auto' | 'wasm' | 'noble' | 'node';

export interface LoaderDeps {
  /** Loads and initialises the Wasm backend for this runtime. */
  wasm: () => Promise<Backend>;
  /** Node.js only: builds the node:crypto backend on top of the Wasm one. */
  node?: (wasm: Backend) => Promise<Backend>;
  /** What 'auto' means here when not the default (node if given, else wasm with the @noble fallback). */
  auto?: 'noble';
  /** Builds the @noble backend with this runtime's options (default: createNobleBackend(), imported on first use). */
  noble?: (options: { syncKem: boolean }) => Backend | Promise<Backend>;
}

/**
 * `options.syncKem` false: the caller uses no synchronous KEM method where the backend has
 * `asyncKem` (the client's session handshake; see above). Default true.
 */
export function createLoadBackend(deps: LoaderDeps): (kind?: BackendKind, options?: { syncKem?: boolean }) => Promise<Backend> {
  const cache = new Map<string, Promise<Backend>>();
  let warned = false;

  const loadWasm = async (): Promise<Backend> => {
    try {
      return await deps.wasm();
    } catch (cause) {
      if (cause instanceof NenCryptoError) throw cause;
      throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', 'nen: the Wasm backend could not be loaded', { cause });
    }
  };

  const load = async (kind: BackendKind, syncKem: boolean): Promise<Backend> => {
    switch (kind) {
      case 'noble':
        return deps.noble ? deps.noble({ syncKem }) : (await import('./noble.js')).createNobleBackend();
      case 'wasm':
        return get('wasm');
      case 'node': {
        if (!deps.node) throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', 'nen: the node backend is only available on Node.js');
        return deps.node(await get('wasm'));
      }
      case 'auto': {
        if (deps.auto === 'noble') return get('noble', syncKem);
        try {
          return await get(deps.node ? 'node' : 'wasm');
        } catch (cause) {
          if (!warned) {
            warned = true;
            console.warn(`nen: Wasm unavailable (${cause instanceof Error ? cause.message : String(cause)}); using the slower pure-JS @noble backend`);
          }
          return get('noble');
        }
      }
      default:
        throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', `nen: unknown backend kind ${String(kind)}`);
    }
  };

  function get(kind: BackendKind, syncKem = true): Promise<Backend> {
    // the option concerns the @noble backend only
    const key = syncKem || kind === 'wasm' || kind === 'node' ? kind : `${kind}:async-kem`;
    let p = cache.get(key);
    if (!p) {
      p = kind === 'wasm' ? loadWasm() : load(kind, syncKem);
      cache.set(key, p);
      p.catch(() => {
        if (cache.get(key) === p) cache.delete(key);
      });
    }
    return p;
  }

  return (kind: BackendKind = 'auto', options?: { syncKem?: boolean }) => {
    if (kind !== 'auto' && kind !== 'wasm' && kind !== 'noble' && kind !== 'node') {
      return Promise.reject(new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', `nen: unknown backend kind ${String(kind)}`));
    }
    return get(kind, options?.syncKem !== false);
  };
}
