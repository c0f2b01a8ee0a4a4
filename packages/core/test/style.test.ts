/**
 * Module size rules for @nen/core, @nen/client and @nen/server sources (tests excluded): no file
 * over 400 lines, no function over 100 lines, and every module opens with a header comment.
 *
 * Pitfall: functions are found by a line-based scan (a `function`, method or arrow opening a block,
 * then brace depth with strings and line comments stripped): good enough for this code base's
 * formatting, not a parser.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const files = ['core', 'client', 'server'].flatMap((p) => {
  const dir = join(root, 'packages', p, 'src');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));
});

const OPENER = /(\bfunction\b|=>\s*\{\s*$|^\s*(async\s+)?(get\s+|static\s+)?#?[A-Za-z_$][\w$]*\s*\([^;]*\)\s*(:\s*[^={]+)?\{\s*$)/;

function longFunctions(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (!OPENER.test(l) || /^\s*(if|for|while|switch|catch)\b/.test(l)) continue;
    let depth = 0;
    let started = false;
    let j = i;
    for (; j < lines.length; j++) {
      const s = lines[j]!.replace(/'(?:\\.|[^'])*'|"(?:\\.|[^"])*"|`(?:\\.|[^`])*`/g, '').split('//')[0]!;
      const open = (s.match(/\{/g) ?? []).length;
      depth += open - (s.match(/\}/g) ?? []).length;
      if (open) started = true;
      if (started && depth <= 0) break;
    }
    if (j - i + 1 > 100) out.push(`line ${i + 1} (${j - i + 1} lines): ${l.trim().slice(0, 60)}`);
  }
  return out;
}

describe('module size', () => {
  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(30);
  });
  for (const f of files) {
    const rel = f.slice(root.length + 1);
    it(rel, () => {
      const text = readFileSync(f, 'utf8');
      expect(text.split('\n').length, `${rel} is over 400 lines`).toBeLessThanOrEqual(400);
      expect(longFunctions(text), `${rel}: functions over 100 lines`).toEqual([]);
      expect(text.trimStart().startsWith('/**') || text.trimStart().startsWith('#!'), `${rel} opens with a header comment`).toBe(true);
    });
  }
});
