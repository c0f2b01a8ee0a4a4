/**
 * Backend selection: `loadBackend(kind)` for each runtime entry point (Node, Edge, browser).
 *
 * 'auto' picks the backend each runtime is best served by: on Node.js the node backend
 * (node:crypto AEAD/HKDF + Wasm KEM/HPKE), on Edge runtimes the Wasm backend (if Wasm cannot
 * load, e.g. a Content-Security-Policy without 'wasm-unsafe-eval', it falls back to @noble with a
 * one-time console.warn), in browsers @noble (`auto: 'noble'`: the page pays ~38 KB gzip of JS
 * instead of ~190 KB with the .wasm; 'wasm' stays available on request, for large bodies and
 * streams: bench/README.md "Browser"). All backends are byte-identical (cross-tested).
 *
 * Pitfalls:
 *  - Results are cached per kind (at most four entries), a failed load is not cached, so a
 *    transient failure can be retried.
 *  - An explicitly requested kind never falls back: 'wasm' that cannot load rejects with
 *    NenCryptoError('NEN_CRYPTO_UNSUPPORTED').
 */
import { NenCryptoError } from '../errors.js';
import { createNobleBackend } from './noble.js';
import type { Backend } from './types.js';

export type BackendKind = 'auto' | 'wasm' | 'noble' | 'node';

export interface LoaderDeps {
  /** Loads and initialises the Wasm backend for this runtime. */
  wasm: () => Promise<Backend>;
  /** Node.js only: builds the node:crypto backend on top of the Wasm one. */
  node?: (wasm: Backend) => Promise<Backend>;
  /** What 'auto' means here when not the default (node if given, else wasm with the @noble fallback). */
  auto?: 'noble';
  /** Builds the @noble backend with this runtime's options (default: createNobleBackend()). */
  noble?: () => Backend | Promise<Backend>;
}

export function createLoadBackend(deps: LoaderDeps): (kind?: BackendKind) => Promise<Backend> {
  const cache = new Map<BackendKind, Promise<Backend>>();
  let warned = false;

  const loadWasm = async (): Promise<Backend> => {
    try {
      return await deps.wasm();
    } catch (cause) {
      if (cause instanceof NenCryptoError) throw cause;
      throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', 'nen: the Wasm backend could not be loaded', { cause });
    }
  };

  const load = async (kind: BackendKind): Promise<Backend> => {
    switch (kind) {
      case 'noble':
        return deps.noble ? deps.noble() : createNobleBackend();
      case 'wasm':
        return get('wasm');
      case 'node': {
        if (!deps.node) throw new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', 'nen: the node backend is only available on Node.js');
        return deps.node(await get('wasm'));
      }
      case 'auto': {
        if (deps.auto === 'noble') return get('noble');
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

  function get(kind: BackendKind): Promise<Backend> {
    let p = cache.get(kind);
    if (!p) {
      p = kind === 'wasm' ? loadWasm() : load(kind);
      cache.set(kind, p);
      p.catch(() => {
        if (cache.get(kind) === p) cache.delete(kind);
      });
    }
    return p;
  }

  return (kind: BackendKind = 'auto') => {
    if (kind !== 'auto' && kind !== 'wasm' && kind !== 'noble' && kind !== 'node') {
      return Promise.reject(new NenCryptoError('NEN_CRYPTO_UNSUPPORTED', `nen: unknown backend kind ${String(kind)}`));
    }
    return get(kind);
  };
}
