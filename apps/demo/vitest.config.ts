import { defineConfig } from 'vitest/config';

// The e2e suite builds the app once and drives it with Debian's chromium; one file, run serially.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
