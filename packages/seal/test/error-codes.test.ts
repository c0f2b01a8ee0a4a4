/** ERROR_CODES.md's @nen/seal section lists exactly the codes of SealErrorCode, each used in src. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const md = readFileSync(join(root, 'ERROR_CODES.md'), 'utf8');
const src = join(import.meta.dirname, '../src');
const sources = readdirSync(src)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(join(src, f), 'utf8'));

describe('ERROR_CODES.md @nen/seal section', () => {
  it('lists exactly the SealErrorCode union, and every code is used', () => {
    const section = md.slice(md.indexOf('## @nen/seal'));
    const listed = [...section.matchAll(/^\| [^|]+ \| `(NEN_SEAL_[A-Z_]+)` \|/gm)].map((m) => m[1]).sort();
    const errors = readFileSync(join(src, 'errors.ts'), 'utf8');
    const declared = [...errors.matchAll(/\| '(NEN_SEAL_[A-Z_]+)'/g)].map((m) => m[1]).sort();
    expect(listed).toEqual(declared);
    // Declared once in the union; used at least once more (errors.ts helpers or other modules).
    const used = (c: string) => sources.reduce((n, s) => n + s.split(`'${c}'`).length - 1, 0) >= 2;
    expect(declared.filter((c) => !used(c as string))).toEqual([]);
  });
});
