#!/usr/bin/env node
/** The `nen-seal` bin: `nen-seal seal …` / `nen-seal open …` (see ./cli.ts). */
import { runSealCli } from './cli.js';

runSealCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
