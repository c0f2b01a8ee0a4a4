/**
 * createLoadBackend's 'auto' per runtime, without a bundler: Edge-style deps (auto = wasm, falling
 * back to @noble with exactly one console.warn when the Wasm cannot load, e.g. a CSP without
 * 'wasm-unsafe-eval') and browser-style deps (auto = @noble, the Wasm loader never called).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLoadBackend } from './load.js';
import { NenCryptoError } from '../index.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createLoadBackend', () => {
  it("Edge-style: 'auto' falls back to noble with one warning when Wasm cannot load; 'wasm' rejects typed", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const wasm = vi.fn(async () => {
      throw new Error('CompileError: WebAssembly.instantiate(): Refused to compile (CSP)');
    });
    const load = createLoadBackend({ wasm });
    expect((await load()).name).toBe('noble');
    expect((await load('auto')).name).toBe('noble');
    expect(warn).toHaveBeenCalledTimes(1);
    await expect(load('wasm')).rejects.toMatchObject({ code: 'NEN_CRYPTO_UNSUPPORTED' });
    await expect(load('wasm')).rejects.toBeInstanceOf(NenCryptoError);
  });

  it("browser-style (auto: 'noble'): 'auto' is noble and never touches the Wasm loader", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const wasm = vi.fn(async () => {
      throw new Error('must not be called');
    });
    const load = createLoadBackend({ auto: 'noble', wasm });
    const a = await load();
    expect(a.name).toBe('noble');
    expect(await load('auto')).toBe(a);
    expect(wasm).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
    await expect(load('node')).rejects.toMatchObject({ code: 'NEN_CRYPTO_UNSUPPORTED' });
  });
});
