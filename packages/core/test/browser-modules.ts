/**
 * A static server on 127.0.0.1 for the real-Chromium tests: packages/core/dist and the @noble
 * packages served unbundled, behind an import map (`IMPORT_MAP`), so a page runs the built
 * modules as a browser would load them, one file per module. `served` lists every path asked
 * for (which modules a page fetched).
 *
 * Pitfalls:
 *  - dist must be built first (the caller names a file it needs; a clear error otherwise).
 *  - Only `.js` files under a known root are served (no path escapes); anything else is a 404.
 */
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '../dist');
const NOBLE = ['hashes', 'curves', 'ciphers', 'post-quantum'];
const roots: Record<string, string> = { dist };
for (const p of NOBLE) roots[`noble-${p}`] = realpathSync(join(here, '../node_modules/@noble', p));

/** The import map resolving `@noble/<pkg>/` to the served copies; a page starts with it. */
export const IMPORT_MAP = `<!doctype html><script type="importmap">${JSON.stringify({
  imports: Object.fromEntries(NOBLE.map((p) => [`@noble/${p}/`, `/noble-${p}/`])),
})}</script>`;

export interface ModuleServer {
  readonly origin: string;
  /** Every request path, in order. */
  readonly served: string[];
  close(): Promise<void>;
}

/** Serves `pages` (first path segment → HTML; '' is `/`) and the modules; `needs` is a dist file that must exist. */
export async function serveModules(pages: Record<string, string>, needs: string): Promise<ModuleServer> {
  if (!existsSync(join(dist, needs))) throw new Error('packages/core/dist is missing: run pnpm --filter @nen/core build');
  const served: string[] = [];
  const server = createServer((req, res) => {
    const [, root = '', ...rest] = new URL(req.url ?? '/', 'http://x').pathname.split('/');
    const base = roots[root];
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
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  return {
    origin: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`,
    served,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
