import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One app, two `next build`s, two `next start`s and a browser: sequential, bounded.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 420_000,
  },
});
