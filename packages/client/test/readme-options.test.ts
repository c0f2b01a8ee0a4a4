/**
 * The README's options table (packages/client/README.md "Options") against the code: every field of
 * `NenClientOptions` (src/options.ts) is documented and every documented option exists, and the
 * defaults the table states for the session options are what `resolveConfig` applies.
 *
 * Pitfalls:
 *  - The interface is read from the source text (two-space-indented `name?:` lines between its
 *    braces), not from the compiled types: a field written on one line with another would be
 *    missed; the count check below catches a parse that finds too few.
 *  - The OHTTP-only options are listed in the `mode` row ("also `relay`, ..."), not in rows of
 *    their own; both places count as documented.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/options.js';

const read = (rel: string) => readFileSync(new URL(rel, import.meta.url), 'utf8');
const readme = read('../README.md');
const source = read('../src/options.ts');

function interfaceFields(): string[] {
  const body = source.match(/export interface NenClientOptions \{\n([\s\S]*?)\n\}/)?.[1] ?? '';
  return [...body.matchAll(/^ {2}([A-Za-z]+)\??:/gm)].map((m) => m[1] as string).sort();
}

function documented(): { rows: Map<string, string>; all: string[] } {
  const table = readme.match(/### Options \(`createNenClient`, `defaultNenClient`\)\n([\s\S]*?)\n\n/)?.[1] ?? '';
  const rows = new Map<string, string>();
  for (const m of table.matchAll(/^\| `([A-Za-z]+)` \| ([^|]+) \|/gm)) rows.set(m[1] as string, (m[2] as string).trim());
  const also = table.match(/also ((?:`[A-Za-z]+`(?:, )?)+)\)/)?.[1] ?? '';
  const extra = [...also.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1] as string);
  return { rows, all: [...rows.keys(), ...extra].sort() };
}

describe('packages/client/README.md options = NenClientOptions', () => {
  it('documents every option and no other', () => {
    const fields = interfaceFields();
    expect(fields.length).toBeGreaterThan(15);
    expect(documented().all).toEqual(fields);
  });

  it("the stated defaults are resolveConfig's", () => {
    const { rows } = documented();
    const cfg = resolveConfig({ unpinned: true, baseUrl: 'http://127.0.0.1/' });
    expect(rows.get('sessionPath')).toBe(`\`${cfg.sessionPath}\``);
    expect(rows.get('timeoutMs')).toBe(`\`${cfg.timeoutMs}\``);
    expect(rows.get('maxResponseBytes')).toBe(`${cfg.maxResponseBytes / 2 ** 20} MiB`);
    expect(rows.get('kem')).toBe("`'xwing'`");
    expect(cfg.unpinnedKem).toBe(0x647a);
    expect(cfg.lifetime).toBe(0);
    for (const off of ['unpinned', 'compress', 'confidentialQuery']) expect(rows.get(off), off).toBe('`false`');
    expect(rows.get('mode')).toBe("`'session'`");
  });
});
