/**
 * Module size rules for @nen/core, @nen/client and @nen/server sources (tests excluded): no file
 * over 400 lines, no function over 100 lines, and every module opens with a header comment.
 * The other languages' clients (clients/go, python, jvm, rust: every Go, Python, Kotlin, Java and
 * Rust file, tests included) keep the same three rules; @nen/seal's sources and bench/ keep the
 * header rule (Biome holds their JS/TS to the line limits).
 *
 * The Rust crates (crates/, the vendored libcrux excepted) keep the same three rules, and the
 * repository-wide rules hold: no `unwrap()` / `expect()` in Rust outside tests (crates/ and
 * clients/rust: `src/` and the fuzz targets, `#[cfg(test)]` modules excepted), no
 * `@ts-ignore` / `@ts-expect-error`, no `export default` in a package's public entry points, no
 * tracked file naming the source-material folder beside the repository or the machine's workspace
 * root (the repository stands alone), and every shell
 * script in bench/, clients/, crates/, scripts/ and packages/ opens with a header comment. The
 * JS files outside the workspace packages (crates/nen-core/scripts, formal/, scripts/,
 * tests/support, fixtures), which no package's `biome lint .` reaches, are linted here.
 *
 * Pitfall: functions are found by a line-based scan (a `function`, method or arrow opening a block,
 * then brace depth with strings and line comments stripped): good enough for this code base's
 * formatting, not a parser.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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

/** Files under `dir` whose name matches `exts`; build output, dependencies and hidden folders are not entered (node_modules links loop). */
function sources(dir: string, exts: RegExp, out: string[] = []): string[] {
  const skip = new Set(['node_modules', 'target', 'build', 'dist', 'results', '__pycache__']);
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (skip.has(e.name) || e.name.startsWith('.')) continue;
    if (e.isDirectory()) sources(join(dir, e.name), exts, out);
    else if (e.isFile() && exts.test(e.name)) out.push(join(root, dir, e.name));
  }
  return out;
}

/** Python functions over 100 lines: a `def` to the last line indented deeper than it (after its signature). */
function longPythonFunctions(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((l, i) => {
    const m = /^(\s*)(async\s+)?def\s/.exec(l);
    if (!m) return;
    const indent = (m[1] as string).length;
    let j = i;
    while (j < lines.length - 1 && !/:\s*(#.*)?$/.test(lines[j] as string)) j++;
    let end = j;
    for (let k = j + 1; k < lines.length; k++) {
      const t = lines[k] as string;
      if (!t.trim()) continue;
      if (t.length - t.trimStart().length <= indent) break;
      end = k;
    }
    if (end - i + 1 > 100) out.push(`line ${i + 1} (${end - i + 1} lines): ${l.trim().slice(0, 60)}`);
  });
  return out;
}

/** Go, Kotlin, Java and Rust functions over 100 lines: a declaration to its closing brace (strings and line comments stripped). */
function longBraceFunctions(text: string): string[] {
  const decl =
    /^\s*(func\b|((pub(\([^)]*\))?|private|public|protected|internal|override|suspend|static|final|async|const|unsafe)\s+)*(fn|fun)\s+\w+|(public|private|protected)\s+[\w<>[\], ?]+\s+\w+\s*\()/;
  const strip = (l: string) => l.replace(/`[^`]*`|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])'/g, '').split('//')[0] as string;
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (!decl.test(l)) return;
    let depth = 0;
    let started = false;
    let j = i;
    for (; j < lines.length; j++) {
      const s = strip(lines[j] as string);
      depth += (s.match(/\{/g) ?? []).length - (s.match(/\}/g) ?? []).length;
      if (s.includes('{')) started = true;
      if (started && depth <= 0) break;
      if (!started && /;\s*$/.test(s)) return; // a declaration without a body
    }
    if (started && j - i + 1 > 100) out.push(`line ${i + 1} (${j - i + 1} lines): ${l.trim().slice(0, 60)}`);
  });
  return out;
}

/** A header comment first (after a shebang; Go's package clause may come before its comment). */
function opensWithHeader(text: string): boolean {
  const first = text.split('\n').filter((l) => l.trim() && !l.startsWith('#!'));
  const opens = (l = '') => /^\s*(\/\/|\/\*|#|"""|''')/.test(l);
  return opens(first[0]) || (/^package\s/.test(first[0] ?? '') && opens(first[1]));
}

describe("module size: the other languages' clients, @nen/seal, bench", () => {
  const clients = sources('clients', /\.(go|py|kt|java|rs)$/);
  const headerOnly = [...sources('packages/seal/src', /(?<!\.test|\.d)\.ts$/), ...sources('bench', /\.(m?js|ts)$/)];

  it('finds the sources', () => {
    for (const lang of ['go', 'python', 'jvm', 'rust']) expect(clients.filter((f) => f.includes(`/clients/${lang}/`)).length, lang).toBeGreaterThan(5);
    expect(headerOnly.length).toBeGreaterThan(30);
  });

  it('client files: at most 400 lines, functions at most 100, a header comment', () => {
    const problems = clients.flatMap((f) => {
      const rel = relative(root, f);
      const text = readFileSync(f, 'utf8');
      const lines = text.split('\n').length;
      const long = f.endsWith('.py') ? longPythonFunctions(text) : longBraceFunctions(text);
      return [
        ...(lines > 400 ? [`${rel}: ${lines} lines`] : []),
        ...long.map((l) => `${rel}: ${l}`),
        ...(text.trim() && !opensWithHeader(text) ? [`${rel}: no header comment`] : []),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('@nen/seal and bench modules open with a header comment', () => {
    expect(headerOnly.filter((f) => !opensWithHeader(readFileSync(f, 'utf8'))).map((f) => relative(root, f))).toEqual([]);
  });
});

/** Rust source outside tests: the text before a `#[cfg(test)]` module. */
function rustNonTest(text: string): string {
  const at = text.search(/^\s*#\[cfg\(test\)\]/m);
  return at < 0 ? text : text.slice(0, at);
}

/** Tracked files under `paths` (git ls-files), relative to the root. */
function tracked(...paths: string[]): string[] {
  return execFileSync('git', ['ls-files', '-z', '--', ...paths], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter(Boolean);
}

describe('repository-wide style rules', () => {
  const rust = sources('crates', /\.rs$/).filter((f) => !f.includes('/crates/vendor/'));
  const clientRust = sources('clients/rust', /\.rs$/);

  it('Rust crates: at most 400 lines, functions at most 100, a header comment', () => {
    expect(rust.length).toBeGreaterThan(20);
    const problems = rust.flatMap((f) => {
      const rel = relative(root, f);
      const text = readFileSync(f, 'utf8');
      const lines = text.split('\n').length;
      return [
        ...(lines > 400 ? [`${rel}: ${lines} lines`] : []),
        ...longBraceFunctions(text).map((l) => `${rel}: ${l}`),
        ...(opensWithHeader(text) ? [] : [`${rel}: no header comment`]),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('Rust: no unwrap() / expect() outside tests (src/ and fuzz targets)', () => {
    const shipped = [...rust, ...clientRust].filter((f) => /\/(src|fuzz_targets)\//.test(f));
    expect(shipped.length).toBeGreaterThan(20);
    const bad = shipped.flatMap((f) =>
      rustNonTest(readFileSync(f, 'utf8'))
        .split('\n')
        .flatMap((l, i) => (/\.(unwrap|expect)\(/.test(l.split('//')[0] as string) ? [`${relative(root, f)}:${i + 1}: ${l.trim()}`] : [])),
    );
    expect(bad).toEqual([]);
  });

  it('no @ts-ignore / @ts-expect-error', () => {
    const ts = tracked('*.ts', '*.tsx', '*.mts', '*.js', '*.mjs', '*.jsx').filter((f) => !f.endsWith('style.test.ts'));
    expect(ts.length).toBeGreaterThan(200);
    expect(ts.filter((f) => /@ts-(ignore|expect-error)/.test(readFileSync(join(root, f), 'utf8')))).toEqual([]);
  });

  it("packages' public entry points use named exports only", () => {
    const entries = ['core', 'client', 'server', 'seal'].flatMap((p) => {
      const pkg = JSON.parse(readFileSync(join(root, 'packages', p, 'package.json'), 'utf8'));
      const targets = JSON.stringify(pkg.exports).match(/\.\/dist\/[\w/.-]+\.js/g) ?? [];
      return [...new Set(targets)].map((t) => join('packages', p, t.replace('./dist/', 'src/').replace(/\.js$/, '.ts')));
    });
    expect(entries.length).toBeGreaterThan(12);
    const bad = entries.filter((f) => /^\s*export\s+(default\b|=)/m.test(readFileSync(join(root, f), 'utf8')));
    expect(bad).toEqual([]);
  });

  it('no tracked file refers to a path outside the repository (the sibling source-material folder, the workspace root)', () => {
    // The patterns are assembled so that this file does not name them itself (git grep exits 1 when nothing matches).
    const outside = [['\\.\\.', 'shared'].join('/'), ['', 'work', ''].join('/')];
    const r = spawnSync('git', ['grep', '-nI', ...outside.flatMap((e) => ['-e', e]), '--', '.'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stdout).toBe('');
    expect(r.status).toBe(1);
  });

  it('JS outside the workspace packages passes Biome lint (their `lint` scripts never reach it: line and function limits)', () => {
    const loose = tracked('*.js', '*.mjs', '*.cjs', '*.ts', '*.tsx').filter((f) => !/^(packages|apps|bench|tests\/consumer|conformance)\//.test(f));
    expect(loose.length).toBeGreaterThan(5);
    const r = spawnSync(join(root, 'node_modules/.bin/biome'), ['lint', '--max-diagnostics=20', ...loose], { cwd: root, encoding: 'utf8' });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    for (const f of loose) expect(opensWithHeader(readFileSync(join(root, f), 'utf8')), `${f} opens with a header comment`).toBe(true);
  });

  it('shell scripts open with a header comment', () => {
    const scripts = tracked('*.sh').filter((f) => /^(bench|clients|crates|scripts|packages)\//.test(f) && !f.startsWith('crates/vendor/'));
    expect(scripts.length).toBeGreaterThan(10);
    expect(scripts.filter((f) => !opensWithHeader(readFileSync(join(root, f), 'utf8')))).toEqual([]);
  });
});
