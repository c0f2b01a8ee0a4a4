#!/usr/bin/env node
/**
 * Writes the conformance vectors (conformance/vectors/*.vectors.json) from @nen/core, or with
 * `--check` verifies the committed files: every value recomputed from its inputs by @nen/core
 * (lib/check.mjs), four error answers of the real @nen/server (lib/check-server.mjs), and the
 * files that need no randomness (errors, retry, canonical targets) byte-identical to a fresh
 * generation. Exit 1 on any difference.
 *
 * Pitfall: generating anew changes every encapsulation (fresh randomness) and hence most bytes;
 * only regenerate when the protocol changes, and commit the whole directory.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as core from '@nen/core';
import { buildErrors, buildRetry } from './lib/build-errors.mjs';
import { buildHandshakes } from './lib/build-handshake.mjs';
import { buildMessages } from './lib/build-messages.mjs';
import { buildStreams } from './lib/build-streams.mjs';
import { checkVectors } from './lib/check.mjs';
import { checkServerErrors } from './lib/check-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const coreTargets = join(here, '../../packages/core/src/protocol/canonical-target.vectors.json');
const json = (o) => `${JSON.stringify(o, null, 2)}\n`;

function canonicalTargets() {
  const src = JSON.parse(readFileSync(coreTargets, 'utf8'));
  return {
    ...src,
    provenance:
      'Copied by conformance/vectors/generate.mjs from packages/core/src/protocol/canonical-target.vectors.json (generated there from the real code); --check fails when the two differ.',
  };
}

const backend = await core.loadBackend('wasm');
if (process.argv.includes('--check')) {
  const results = await checkVectors(core, backend, here);
  results.push(...(await checkServerErrors(JSON.parse(readFileSync(join(here, 'errors.vectors.json'), 'utf8')))));
  const fixed = { 'errors.vectors.json': buildErrors(core), 'retry.vectors.json': buildRetry(core), 'canonical-target.vectors.json': canonicalTargets() };
  for (const [f, want] of Object.entries(fixed)) {
    const ok = readFileSync(join(here, f), 'utf8') === json(want);
    results.push({
      file: f,
      name: 'regenerated file identical',
      ok,
      ...(ok ? {} : { detail: 'differs from a fresh generation: run node conformance/vectors/generate.mjs' }),
    });
  }
  const bad = results.filter((r) => !r.ok);
  for (const r of bad) console.error(`FAIL ${r.file} ${r.name}: ${r.detail}`);
  console.log(`vectors: ${results.length - bad.length}/${results.length} pass (checked against @nen/core, ${backend.name} backend)`);
  process.exit(bad.length ? 1 : 0);
}
const hs = buildHandshakes(core, backend);
const files = {
  'handshake.vectors.json': hs.file,
  'messages.vectors.json': buildMessages(core, backend, hs.sessions),
  'streams.vectors.json': buildStreams(core, backend, hs.sessions),
  'errors.vectors.json': buildErrors(core),
  'retry.vectors.json': buildRetry(core),
  'canonical-target.vectors.json': canonicalTargets(),
};
for (const [f, o] of Object.entries(files)) writeFileSync(join(here, f), json(o));
console.log(`wrote ${Object.keys(files).length} files to ${here}`);
