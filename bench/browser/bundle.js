/**
 * The browser weight of @nen/client as a page pays it: an esbuild bundle of the client's browser
 * entry with the conditions Next.js resolves for client components (`browser`, `import`,
 * `default`), minified, split at dynamic imports, every output gzipped (level 9, as a CDN
 * serves it). "Initial" is what a page fetches before its first encrypted response: the entry
 * chunk plus the chunks it imports statically, plus the lazily imported chunks and the .wasm
 * the default path reaches (`lazyOnFirstRequest`). Everything else is "lazy": loaded only when
 * an application opts into it (e.g. `backend: 'wasm'`).
 *
 * Pitfalls:
 *  - esbuild leaves `new URL('…/nen_core_bg.wasm', import.meta.url)` alone (no asset emitted):
 *    the .wasm is counted from packages/core/wasm next to the chunk that references it, and a
 *    harness serving the bundle must serve it at the URL that expression resolves to.
 *  - The default entry calls nenFetch so that tree shaking keeps what a real page keeps.
 *  - `coreDist` / `clientDist` (A/B builds) are for measurements only: the suite's weight check bundles the
 *    workspace's packages/core.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { benchDir } from '../lib/env.js';

export const CLIENT_DIR = path.resolve(benchDir, '../packages/client');
export const WASM_FILE = path.resolve(benchDir, '../packages/core/wasm/nen_core_bg.wasm');
export const DEFAULT_ENTRY = "import { nenFetch } from '@nen/client';\nglobalThis.nenFetch = nenFetch;\n";
const WASM_REF = 'nen_core_bg.wasm';

const gz = (buf) => gzipSync(buf, { level: 9 }).length;

/**
 * Bundles `entry` (module source resolved from packages/client) into `outdir` (a fresh temp dir
 * when omitted). `minify`: true (what ships), false, or 'keep-names' (whitespace and syntax
 * minified, identifiers kept: a profile names functions at nearly the shipped parse cost). `lazyOnFirstRequest`: names of dynamic chunks (substring of the output name)
 * the default path loads before its first response; they count as initial. `lazyExternal`
 * (measurements only, ./cold-floor.js --onefile): dynamic imports left unbundled, so the page's
 * code is one file. `hub` (measurements only, ./cold-floor.js --hub): every dynamically imported
 * module also imports @nen/client statically, so every module the page shares with a lazy chunk
 * has the same set of entries and esbuild emits one shared chunk (a prototype of a library whose
 * lazy parts import the page's code from one module).
 */
export async function bundleClient({
  entry = DEFAULT_ENTRY,
  outdir,
  lazyOnFirstRequest = [],
  minify = true,
  coreDist,
  clientDist,
  lazyExternal = false,
  hub = false,
} = {}) {
  const dir = outdir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'nen-bundle-'));
  const dists = coreDist || clientDist ? distOptions(coreDist, clientDist) : {};
  // measurements only: every dynamic import left to the browser (not bundled), so no chunk is
  // shared with a lazy one and the page's code is one file (the path must not reach them)
  const lazyPlugin = {
    name: 'lazy-external',
    setup: (b) => b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined)),
  };
  const plugins = [...(dists.plugins ?? []), ...(lazyExternal ? [lazyPlugin] : []), ...(hub ? [hubPlugin(clientDist)] : [])];
  const result = await build({
    stdin: { contents: entry, resolveDir: CLIENT_DIR, loader: 'js', sourcefile: 'entry.js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['browser', 'import', 'default'],
    target: 'es2022',
    ...(minify === 'keep-names' ? { minifyWhitespace: true, minifySyntax: true } : { minify }),
    splitting: true,
    outdir: dir,
    entryNames: 'entry',
    metafile: true,
    write: true,
    logLevel: 'error',
    ...dists,
    plugins,
  });
  const outputs = result.metafile.outputs; // keys and import paths relative to process.cwd()
  // the page's entry is entry.js (entryNames); dynamic-import chunks carry an entryPoint too
  const entryKey = Object.keys(outputs).find((k) => path.basename(k) === 'entry.js');
  const initial = new Set();
  const visit = (k) => {
    if (initial.has(k)) return;
    initial.add(k);
    for (const imp of outputs[k].imports ?? []) {
      if (imp.external) continue;
      if (imp.kind === 'import-statement' || lazyOnFirstRequest.some((n) => path.basename(imp.path).includes(n))) visit(imp.path);
    }
  };
  visit(entryKey);
  const files = [];
  for (const [k, out] of Object.entries(outputs)) {
    if (k.endsWith('.map')) continue;
    const buf = fs.readFileSync(path.resolve(process.cwd(), k));
    const name = path.basename(k);
    files.push({ name, bytes: buf.length, gzip: gz(buf), initial: initial.has(k), inputs: topInputs(out.inputs) });
    if (buf.includes(WASM_REF)) {
      const wasm = fs.readFileSync(WASM_FILE);
      files.push({ name: WASM_REF, bytes: wasm.length, gzip: gz(wasm), initial: initial.has(k), inputs: [], referencedBy: name });
      fs.mkdirSync(path.join(dir, 'wasm'), { recursive: true });
      fs.copyFileSync(WASM_FILE, path.join(dir, 'wasm', WASM_REF));
    }
  }
  const sum = (pick, field) => files.filter(pick).reduce((a, f) => a + f[field], 0);
  return {
    dir,
    files,
    initial: { bytes: sum((f) => f.initial, 'bytes'), gzip: sum((f) => f.initial, 'gzip') },
    lazy: { bytes: sum((f) => !f.initial, 'bytes'), gzip: sum((f) => !f.initial, 'gzip') },
  };
}

/**
 * `coreDist` / `clientDist`: @nen/core / @nen/client from other builds (A/B of two builds, or a
 * copy that another build in the shared tree cannot rewrite mid-run): the core's browser entry
 * and ohttp subpath, the client's index and ohttp subpath; @noble/* still from packages/core.
 */
function distOptions(coreDist, clientDist) {
  const target = {
    ...(coreDist
      ? {
          '@nen/core': path.resolve(coreDist, 'index.browser.js'),
          '@nen/core/ohttp': path.resolve(coreDist, 'ohttp/index.js'),
          '@nen/core/ohttp/client': path.resolve(coreDist, 'ohttp/client-entry.js'),
        }
      : {}),
    ...(clientDist ? { '@nen/client': path.resolve(clientDist, 'index.js'), '@nen/client/ohttp': path.resolve(clientDist, 'ohttp/index.js') } : {}),
  };
  return {
    nodePaths: [path.resolve(benchDir, '../packages/core/node_modules'), path.resolve(benchDir, '../packages/client/node_modules')],
    plugins: [
      {
        name: 'nen-dists',
        setup(b) {
          b.onResolve({ filter: /^@nen\/(core|client)(\/ohttp(\/client)?)?$/ }, (a) => (target[a.path] ? { path: target[a.path] } : undefined));
        },
      },
    ],
  };
}

/** ./bundle.js `hub`: wraps each dynamic-import target as `import '@nen/client'; export * from target`. */
function hubPlugin(clientDist) {
  const client = clientDist ? path.resolve(clientDist, 'index.js') : '@nen/client';
  return {
    name: 'hub',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (a) => {
        if (a.kind !== 'dynamic-import' || a.pluginData === 'hub') return undefined;
        const r = await b.resolve(a.path, { resolveDir: a.resolveDir, kind: a.kind, pluginData: 'hub' });
        return r.errors.length ? undefined : { path: r.path, namespace: 'hub' };
      });
      b.onLoad({ filter: /.*/, namespace: 'hub' }, (a) => ({
        contents: `import ${JSON.stringify(client)};\nexport * from ${JSON.stringify(a.path)};\n`,
        resolveDir: CLIENT_DIR,
        loader: 'js',
      }));
    },
  };
}

/** The five largest inputs of an output (minified bytes in it), for attribution. */
function topInputs(inputs) {
  return Object.entries(inputs)
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .slice(0, 5)
    .map(([name, v]) => ({ name: name.replace(/^.*node_modules\//, ''), bytes: v.bytesInOutput }));
}
