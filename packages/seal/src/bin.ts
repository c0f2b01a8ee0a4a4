#!/usr/bin/env node
/**
 * The `nen-seal` bin: `nen-seal seal …` / `nen-seal open …` (see ./cli.ts).
 * Pitfall: the exit status is cli.ts's (0 ok, 1 failure, 2 usage), set through `process.exitCode`
 * so that stdout is flushed before the process ends.
 */
import { runSealCli } from './cli.js';

runSealCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
