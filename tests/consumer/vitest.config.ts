/**
 * The consumer test's vitest configuration (the README Quick start in a fresh create-next-app
 * project, from the packed tarballs).
 * Pitfall: one app, two `next build`s, two `next start`s and a browser: files run one at a time
 * with long timeouts.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 420_000,
  },
});
