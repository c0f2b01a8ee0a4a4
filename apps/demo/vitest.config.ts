/**
 * The demo's vitest configuration: the e2e suite builds the app once and drives it with Debian's
 * Chromium.
 * Pitfall: the files share one build and one browser: they run one at a time (fileParallelism off).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
