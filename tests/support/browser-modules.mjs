/**
 * A static server on 127.0.0.1 for the real-Chromium tests: packages/core/dist and the @noble
 * packages served unbundled, behind an import map (`IMPORT_MAP`, or `importMap()` with more bare
 * names), so a page runs the built modules as a browser would load them, one file per module.
 * `served` lists every path asked for (which modules a page fetched). Another package's tests
 * add their dist as a further root (`serveModules`' `extraRoots`): @nen/client's browser tests
 * serve its dist beside core's. Shared by @nen/core's and @nen/client's tests (node: only).
 *
 * Pitfalls:
 *  - dist must be built first (the caller names a core dist file it needs; a clear error if not).
 *  - Only `.js` files under a known root are served (no path escapes); anything else is a 404.
 */
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const core = join(dirname(fileURLToPath(import.meta.url)), '../../packages/core');
const dist = join(core, 'dist');
const NOBLE = ['hashes', 'curves', 'ciphers', 'post-quantum'];
const roots = { dist };
for (const p of NOBLE) roots[`noble-${p}`] = realpathSync(join(core, 'node_modules/@noble', p));

/** An import map resolving `@noble/<pkg>/` to the served copies, plus `imports` (bare name -> served path); a page starts with it. */
export function importMap(imports = {}) {
  return `<!doctype html><script type="importmap">${JSON.stringify({
    imports: { ...Object.fromEntries(NOBLE.map((p) => [`@noble/${p}/`, `/noble-${p}/`])), ...imports },
  })}</script>`;
}

/** The import map of core's own pages (@noble only). */
export const IMPORT_MAP = importMap();

/**
 * Serves `pages` (first path segment -> HTML; '' is `/`) and the modules; `needs` is a core dist
 * file that must exist; `extraRoots` (first path segment -> directory of `.js` files) are served like dist.
 */
export async function serveModules(pages, needs, extraRoots = {}) {
  if (!existsSync(join(dist, needs))) throw new Error('packages/core/dist is missing: run pnpm --filter @nen/core build');
  const all = { ...roots, ...extraRoots };
  const served = [];
  const server = createServer((req, res) => {
    const [, root = '', ...rest] = new URL(req.url ?? '/', 'http://x').pathname.split('/');
    const base = all[root];
    const file = base ? normalize(join(base, ...rest)) : '';
    served.push(req.url ?? '');
    const page = pages[root];
    if (page !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    } else if (base && file.startsWith(base) && existsSync(file) && statSync(file).isFile() && extname(file) === '.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      createReadStream(file).pipe(res);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  return {
    origin: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`,
    served,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
