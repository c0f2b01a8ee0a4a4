/**
 * The public surface of @nen/core: the four entries (Node `index.ts`, `index.browser.ts`,
 * `index.edge.ts`, `index.workerd.ts`) export exactly the same names, by name (no `export *`), and the byte helpers
 * stay internal.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ENTRIES = ['index.ts', 'index.browser.ts', 'index.edge.ts', 'index.workerd.ts'];
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
  it('use named exports only and agree name for name', () => {
    const lists = ENTRIES.map((f) => {
      expect(source(f)).not.toMatch(/^export\s*\*/m);
      return exportedNames(source(f));
    });
    expect(lists[0]!.length).toBeGreaterThan(50);
    expect(lists[1]).toEqual(lists[0]);
    expect(lists[2]).toEqual(lists[0]);
    expect(lists[3]).toEqual(lists[0]);
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
