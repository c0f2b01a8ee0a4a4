#!/usr/bin/env node
// The `nen` command of @nen/server: runs the built CLI (dist/cli.js, from src/cli.ts).
// A checked-in file, so package managers link the bin at install time even in a workspace
// where dist/ does not exist yet (`pnpm exec nen keygen` at the repository root).
import('../dist/cli.js').catch((e) => {
  const missing = e && e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('cli.js');
  console.error(missing ? 'nen: @nen/server is not built yet (run `pnpm build`)' : `nen: ${e && e.message ? e.message : e}`);
  process.exit(1);
});
