/**
 * A Node.js builtin module (node:crypto, node:zlib, node:buffer) when this runtime is Node.js,
 * reached through `process.getBuiltinModule` so that no bundler ever sees a `node:` import: the
 * modules that use it are also in browser, Edge and workerd bundles.
 *
 * Pitfalls:
 *  - Next.js's Edge sandbox throws on any Node API read from `process` (even a feature test):
 *    `EdgeRuntime` is checked first and the read is guarded.
 *  - `process.getBuiltinModule` exists from Node 20.16 / 22.3; where it is missing the answer is
 *    undefined and callers take their portable path.
 *  - A runtime may carry a partial module (workerd's nodejs_compat, Bun, Deno): callers check the
 *    functions they use, and the crypto callers run their own known-answer test.
 */

/** The builtin `id` when this is Node.js; never touched on Edge, where `process` is a proxy that throws on Node APIs. */
export function nodeBuiltin<T>(id: string): T | undefined {
  const g = globalThis as { EdgeRuntime?: unknown; process?: { getBuiltinModule?: (id: string) => unknown } };
  if (typeof g.EdgeRuntime === 'string') return undefined;
  try {
    const p = g.process;
    const get = p?.getBuiltinModule;
    return typeof get === 'function' ? (get.call(p, id) as T | undefined) : undefined;
  } catch {
    return undefined;
  }
}
