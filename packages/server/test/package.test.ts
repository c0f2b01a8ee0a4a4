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
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

describe('published dist', () => {
  it('imports only node: builtins, relative modules and declared dependencies', () => {
    expect(existsSync(dist), 'run `pnpm turbo run build --filter=@nen/server...` first').toBe(true);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const allowed = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
    const files = jsFiles(dist);
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
        (m) => m[1] ?? m[2]!,
      );
      for (const s of specs) {
        if (s.startsWith('.') || s.startsWith('node:')) continue;
        const name = s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!;
        expect(allowed.has(name), `${f.slice(root.length + 1)} imports ${s}`).toBe(true);
      }
    }
  });

  it('the main entry never loads ioredis (statically imported only by the @nen/server/redis subpath)', () => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      // Static and dynamic imports: the main entry has no path at all to ioredis (bundlers follow both).
      for (const m of text.matchAll(
        /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
      )) {
        const spec = m[1] ?? m[2] ?? m[3]!;
        expect(spec, `${file.slice(root.length + 1)} imports ${spec}`).not.toBe('ioredis');
        if (spec.startsWith('.')) visit(join(dirname(file), spec));
      }
    };
    visit(join(dist, 'index.js'));
    expect(seen.size).toBeGreaterThan(5);
    expect([...seen].some((f) => f.endsWith('stores/redis.js'))).toBe(false);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(pkg.dependencies?.ioredis).toBeUndefined();
    expect(pkg.peerDependenciesMeta?.ioredis).toEqual({ optional: true });
    expect(Object.keys(pkg.exports ?? {})).toContain('./redis');
  });

  it('has a small public API: at most 8 runtime exports; redisStore from @nen/server/redis', async () => {
    const main = await import(join(dist, 'index.js'));
    expect(Object.keys(main).sort()).toEqual([
      'NenError',
      'StoreUnavailableError',
      'createNen',
      'memoryStore',
      'parseServerKeys',
      'routes',
      'withNen',
      'withNenStream',
    ]);
    const redis = await import(join(dist, 'redis.js'));
    expect(Object.keys(redis)).toEqual(['redisStore']);
    expect(new main.StoreUnavailableError('x')).toBeInstanceOf(main.NenError);
  });
});
