/**
 * ohttpKemReady() (./kem-wasm.ts), awaited by @nen/client's OHTTP mode before an encapsulation:
 * without a registered loader (the browser entry registers none) it resolves at once and leaves
 * the @noble path; once a runtime entry (../backend/index.ts, Node.js) has registered its loader
 * it resolves with the Wasm KEM loaded, so the first encapsulation already runs in Wasm.
 */
import { describe, expect, it } from 'vitest';
import { wasmGlueIfLoaded } from '../backend/wasm-loaded.js';
import { ohttpKemReady } from './kem-wasm.js';

describe('ohttpKemReady', () => {
  it('resolves at once without a loader (browsers keep @noble), then loads the Wasm once the Node.js entry registered its loader', async () => {
    await ohttpKemReady();
    expect(wasmGlueIfLoaded()).toBeUndefined();
    await import('../backend/index.js'); // registers the embedded-Wasm loader, loads nothing yet
    expect(wasmGlueIfLoaded()).toBeUndefined();
    await ohttpKemReady();
    expect(wasmGlueIfLoaded()).toBeDefined();
    await ohttpKemReady(); // loaded: no second load
  });
});
