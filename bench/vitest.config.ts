import { defineConfig } from 'vitest/config';

// Unit tests run in parallel; quick.test.ts builds/starts the demo app and runs the quick bench.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 420_000,
  },
});
