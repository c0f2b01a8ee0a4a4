/**
 * The public surface of @nen/core: the four entries (Node `index.ts`, `index.browser.ts`,
 * `index.edge.ts`, `index.workerd.ts`) export exactly the same names: each adds its own `loadBackend` to
 * ./public.ts, which names every export one by one (no `export *` there); the byte helpers stay internal.
 * The one difference: the server-side entries also re-export the OHTTP codec (./ohttp/index.ts), which
 * browsers get only from the `@nen/core/ohttp` subpath, so a session-mode page does not carry it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ENTRIES = ['index.ts', 'index.browser.ts', 'index.edge.ts', 'index.workerd.ts'];
const BROWSER = 'index.browser.ts';
const source = (f: string) => readFileSync(new URL(`../src/${f}`, import.meta.url), 'utf8');

function exportedNames(src: string): string[] {
  const names: string[] = [];
  for (const m of src.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s*from/g)) {
    for (const n of m[2]!.split(',')) {
      const name = n.trim();
      if (name) names.push(`${m[1] ? 'type ' : ''}${name}`);
    }
  }
  return names.sort();
}

describe('@nen/core entries', () => {
  it('public.ts names its exports one by one (no `export *`), more than 50 of them', () => {
    expect(source('public.ts')).not.toMatch(/^export\s*\*/m);
    expect(exportedNames(source('public.ts')).length).toBeGreaterThan(50);
  });

  it('every entry is exactly loadBackend + BackendKind from its own backend, plus public.ts', () => {
    for (const f of ENTRIES) {
      const src = source(f);
      expect(
        [...src.matchAll(/^export\s*\*\s*from\s*'([^']+)'/gm)].map((m) => m[1]),
        f,
      ).toEqual(f === BROWSER ? ['./public.js'] : ['./public.js', './ohttp/index.js']);
      expect(exportedNames(src), f).toEqual(['loadBackend', 'type BackendKind']);
    }
  });

  it('the four entries export the same runtime names; the browser entry lacks exactly the OHTTP codec', async () => {
    const names = async (f: string) => Object.keys(await import(`../src/${f.replace(/\.ts$/, '.js')}`)).sort();
    const node = await names('index.ts');
    const ohttp = new Set(await names('ohttp/index.ts'));
    expect(node).toContain('loadBackend');
    expect(ohttp.size).toBeGreaterThan(10);
    for (const f of ENTRIES.slice(1)) expect(await names(f), f).toEqual(f === BROWSER ? node.filter((n) => !ohttp.has(n)) : node);
  });

  it('keep the byte helpers internal', async () => {
    const core = (await import('../src/index.js')) as Record<string, unknown>;
    for (const name of ['u8', 'u16', 'u32', 'u64', 'utf8', 'fromUtf8', 'toHex', 'fromHex', 'lengthPrefixed', 'timingSafeEqual']) {
      expect(core[name], name).toBeUndefined();
    }
    for (const name of ['sealRequest', 'openRequest', 'sealResponse', 'openResponse', 'parseRequest', 'parseResponse', 'loadBackend', 'NenError']) {
      expect(typeof core[name], name).toBe('function');
    }
  });
});
