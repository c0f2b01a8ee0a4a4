/**
 * The published shape of @nen/server: what `dist/` (the only published directory, package.json
 * "files") contains must not import test-only packages (vitest, fast-check: devDependencies that a
 * consumer does not install), and every runtime import is a declared dependency or a node: builtin.
 * Needs the build (`pnpm turbo run build --filter=@nen/server...`); fails without it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []);
}

describe('published dist', () => {
  it('imports only node: builtins, relative modules and declared dependencies', () => {
    expect(existsSync(dist), 'run `pnpm turbo run build --filter=@nen/server...` first').toBe(true);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    const allowed = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
    const files = jsFiles(dist);
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]!);
      for (const s of specs) {
        if (s.startsWith('.') || s.startsWith('node:')) continue;
        const name = s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!;
        expect(allowed.has(name), `${f.slice(root.length + 1)} imports ${s}`).toBe(true);
      }
    }
  });
});
