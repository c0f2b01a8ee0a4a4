// Vitest for @nen/core: unit tests next to the sources (src/), vectors, loading proofs and browser suites in test/.
// Pitfall: test/ builds a Next.js app and drives Chromium (next-fixture, *.browser), hence the long timeouts; they need the built dist/ and wasm/.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
