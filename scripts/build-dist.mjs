/**
 * Compiles a package's src/ into its dist/ atomically (the TypeScript half of the `build` script
 * of @nen/core, @nen/client, @nen/server and @nen/seal, run from the package directory):
 * tsc -p tsconfig.build.json writes a fresh tree into a temporary directory, which then replaces
 * dist/ with two renames, so a reader of dist/ sees the old tree or the new one, never a missing
 * or half-written one.
 *
 * Why: the build used to remove dist/ first and have tsc rewrite it, ~12 s on this machine. The
 * working tree is shared, so another engineer's test run that read dist/ in that window failed:
 * test/webcrypto-kem.browser.test.ts's last case imports dist/ in fresh browser contexts after
 * start-up ("Failed to fetch dynamically imported module: .../dist/backend/index.browser.js",
 * reproduced by rebuilding during a run), and passed when run again alone. The same holds for
 * every test that runs another package's dist/ (the server's tests run @nen/client's and the
 * `nen` bin runs the server's).
 *
 * Pitfalls:
 *  - The temporary trees live in node_modules/.cache/ (ignored by git, Biome and tsc's include):
 *    an interrupted build leaves dist/ as it was and its leftovers are removed by the next one.
 *  - Same file system for both renames (node_modules/ is inside the package); the package is the
 *    working directory (pnpm runs a package's scripts there).
 *  - tsc's own errors fail the build before dist/ is touched.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const pkg = process.cwd();
const cache = join(pkg, 'node_modules/.cache/nen-build-dist');
const next = join(cache, 'dist.next');
const old = join(cache, 'dist.old');
const dist = join(pkg, 'dist');

rmSync(cache, { recursive: true, force: true });
mkdirSync(cache, { recursive: true });
const tsc = createRequire(join(pkg, 'package.json')).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(pkg, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
if (existsSync(dist)) renameSync(dist, old);
renameSync(next, dist);
rmSync(cache, { recursive: true, force: true });
