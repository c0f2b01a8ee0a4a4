/**
 * The bench's vitest configuration: unit tests under test/ in parallel.
 * Pitfall: quick.test.ts builds and starts the demo app and runs the quick bench, hence the long
 * hook timeout.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 420_000,
  },
});
