/**
 * docs/operations.md "1. Configuration reference" against the code: the table names exactly the
 * environment variables the server reads (`env('…')` / `envInt('…', …)` in src/), the paragraph
 * after it names exactly the `createNen({...})` options (`NenConfig`), and the numeric defaults
 * the table states are what `resolveSettings` applies with those variables unset.
 *
 * Pitfalls:
 *  - The variables are found in the source text by the two helpers' call form: a variable read
 *    some other way (`process.env.X`) is not seen; the count check catches a parse gone wrong.
 *  - resolveSettings reads process.env: the variables of the table are removed for the defaults
 *    test and put back after it, so a developer's shell settings cannot change the outcome.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../src/config.js';

const src = new URL('../src/', import.meta.url).pathname;
const docs = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
const reference = docs.match(/## 1\. Configuration reference\n([\s\S]*?)\n## 2\./)?.[1] ?? '';

/** `name -> default cell` of the reference table. */
function table(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of reference.matchAll(/^\| `([A-Z_]+)` \|.*\| ([^|]*) \|$/gm)) rows.set(m[1] as string, (m[2] as string).trim());
  return rows;
}

function variablesRead(): string[] {
  const names = new Set<string>();
  for (const f of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
    const text = readFileSync(join(src, f), 'utf8');
    for (const m of text.matchAll(/\benv(?:Int)?\(\s*'([A-Z_]+)'/g)) names.add(m[1] as string);
  }
  return [...names].sort();
}

function configFields(): string[] {
  const body = readFileSync(join(src, 'config.ts'), 'utf8').match(/export interface NenConfig \{\n([\s\S]*?)\n\}/)?.[1] ?? '';
  return [...body.matchAll(/^ {2}([A-Za-z]+)\??:/gm)].map((m) => m[1] as string).sort();
}

describe('docs/operations.md configuration reference = the code', () => {
  it('the table names exactly the environment variables the server reads', () => {
    const read = variablesRead();
    expect(read.length).toBeGreaterThan(10);
    expect([...table().keys()].sort()).toEqual(read);
  });

  it('the options paragraph names exactly the NenConfig fields', () => {
    const paragraph = reference.match(/The same settings as `createNen\(\{\.\.\.\}\)` options[\s\S]*?\n\n/)?.[0] ?? '';
    const named = [...paragraph.matchAll(/`([a-z][A-Za-z]+)`/g)].map((m) => m[1] as string);
    const fields = configFields();
    expect(fields.length).toBeGreaterThan(15);
    expect([...new Set(named)].sort()).toEqual(fields);
  });

  describe('stated defaults', () => {
    const saved = new Map<string, string | undefined>();
    beforeAll(() => {
      for (const name of table().keys()) {
        saved.set(name, process.env[name]);
        delete process.env[name];
      }
    });
    afterAll(() => {
      for (const [name, v] of saved) if (v !== undefined) process.env[name] = v;
    });

    it("are resolveSettings' with the variables unset", () => {
      const rows = table();
      const s = resolveSettings({});
      const num = (name: string) => Number((rows.get(name) ?? '').replace(/[ ,]/g, ''));
      expect(num('NEN_SESSION_TTL')).toBe(s.ttlS);
      expect(num('NEN_IDLE_TIMEOUT')).toBe(s.idleS);
      expect(rows.get('NEN_MAX_BODY')).toBe(`${s.maxBody / 2 ** 20} MiB`);
      expect(num('NEN_HANDSHAKE_RATE')).toBe(s.rate);
      expect(num('NEN_HANDSHAKES_PER_SECOND')).toBe(s.handshakesPerSecond);
      expect(num('NEN_UNCONFIRMED_TTL') * 1000).toBe(s.unconfirmedMs);
      expect(num('NEN_TRUST_PROXY')).toBe(0);
      expect(rows.get('NEN_SERVER_TIMING')).toBe('off');
      expect(s.serverTiming).toBe(false);
      expect(num('NEN_MAX_SESSIONS')).toBe(50_000);
      expect(reference).toContain(`\`timestampWindowMs\` (${s.tsWindow.toLocaleString('en-US').replace(',', ' ')})`);
      expect(reference).toContain(`\`rotateGraceMs\` (${s.grace.toLocaleString('en-US').replace(',', ' ')})`);
      expect(reference).toContain(`${s.keyCacheSize.toLocaleString('en-US').replace(',', ' ')} entries`);
    });
  });
});
