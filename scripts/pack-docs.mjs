#!/usr/bin/env node
/**
 * `prepack` of @nen/core, @nen/client and @nen/server: copies the repository documents that the
 * package README links to into `<package>/docs/`, so the tarball holds them and the README's
 * relative links (`docs/PROTOCOL.md`, …) resolve on npm and in node_modules. The copies are
 * gitignored (packages/*\/docs/); the originals at the repository root are the only ones edited.
 * Usage (from a package directory): node ../../scripts/pack-docs.mjs PROTOCOL.md THREAT_MODEL.md …
 * Pitfall: a missing source fails the pack, so a README can never ship a dead link.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(process.cwd(), 'docs');
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
for (const rel of process.argv.slice(2)) {
  const src = join(root, rel);
  if (!existsSync(src)) {
    console.error(`pack-docs: ${rel} does not exist at the repository root`);
    process.exit(1);
  }
  copyFileSync(src, join(out, basename(rel)));
}
