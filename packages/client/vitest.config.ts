// Vitest for @nen/client: unit tests next to the sources (src/); in test/, the client against node:http servers
// on 127.0.0.1 that misbehave on purpose (the full protocol against @nen/server is in packages/server/test).
// Pitfall: the 30 s timeout is room for a loaded machine, not a speed bound.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
