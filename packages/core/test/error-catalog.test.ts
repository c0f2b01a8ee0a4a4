/**
 * ERROR_CODES.md against what the repository really does, in both directions:
 *  1. every code listed is asserted by at least one test together with its status: the code on a
 *     non-comment line of a test file (a *.test.* file, or any file under a test/ or tests/
 *     directory, Rust tests included) that makes assertions, with the code's HTTP status from the
 *     catalog within three lines of it when the catalog gives one (a row such as
 *     `[..., 400, 'NEN_X']` or `{ status: 400, code: 'NEN_X' }`); for a code without an HTTP
 *     status the asserted code is its status (an error's `code`, the CLI's `[NEN_X]`);
 *  2. every code any package can produce (a 'NEN_…' literal in packages/<any>/src, a "NEN_…"
 *     literal in the Rust crate's src) is listed, and so is every code the other languages'
 *     clients define (a "NEN_…" literal, or 'NEN_…' in Python, in clients/go outside *_test.go,
 *     clients/python/src, clients/jvm/src/main, clients/rust/src).
 * The existing error-codes.test.ts files check the statuses against codes.ts / SealErrorCode.
 *
 * Pitfalls: environment variable names share the NEN_ prefix; a name counts as one when a source
 * reads it as such (`env('NEN_X')`, `envInt('NEN_X', …)`, `process.env.NEN_X`, `=== 'NEN_X'` on
 * a parsed `NAME=value` line). A code that no test can produce goes in EXEMPT with the reason —
 * never silently skipped. Codes of other contracts (the conformance driver's NETWORK / DRIVER)
 * have no NEN_ prefix and are not Nen codes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const md = readFileSync(join(root, 'ERROR_CODES.md'), 'utf8');

/** Listed codes that no test can produce, each with the reason. */
const EXEMPT: Record<string, string> = {
  NEN_PROTOCOL_ERROR: 'reserved (ERROR_CODES.md: "generic protocol error (reserved)"): declared in CLIENT_ERRORS, thrown nowhere',
  NEN_CRYPTO_RANDOM: "the operating system's random number generator failing (getrandom): cannot be made to fail from a test",
  NEN_CRYPTO_LIMIT: 'an HPKE context after 2^64 - 1 messages (sequence number u64::MAX, RFC 9180 §5.2): unreachable in a test; the sequence is not settable',
};

const SKIP_DIRS = new Set(['node_modules', '.next', 'dist', 'target', '.turbo', '.git', '.tools', 'coverage', 'fuzz']);

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(e.name) || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** code → the HTTP statuses the catalog gives it (empty: no HTTP status). */
function listedCodes(): Map<string, Set<number>> {
  const listed = new Map<string, Set<number>>();
  for (const m of md.matchAll(/^\|(.*)\|\s*$/gm)) {
    const cells = (m[1] as string).split('|').map((c) => c.trim());
    const i = cells.findIndex((c) => /^`NEN_[A-Z0-9_]+`$/.test(c));
    if (i < 0 || i > 1) continue; // the code is the first or second column of a catalog table
    const code = (cells[i] as string).slice(1, -1);
    const other = cells[i === 0 ? 1 : 0] as string;
    const statuses = listed.get(code) ?? new Set<number>();
    if (/^\d{3}$/.test(other)) statuses.add(Number(other));
    listed.set(code, statuses);
  }
  return listed;
}

const files = walk(root);
const isTestFile = (f: string) => /\.test\.[cm]?[jt]sx?$/.test(f) || (/\/tests?\//.test(relative(root, f)) && /\.([cm]?[jt]sx?|rs)$/.test(f));
const self = fileURLToPath(import.meta.url);
const testFiles = files
  .filter((f) => isTestFile(f) && f !== self) // this file names codes without producing them
  .map((f) => ({ file: relative(root, f), lines: readFileSync(f, 'utf8').split('\n') }));
const ASSERTS = /\bexpect\b|\bassert(?:_eq|_ne|_matches)?!?[.(]|\.toThrow|\.rejects/;
const COMMENT = /^\s*(\/\/|\/\*|\*|#)/;

/** The first test line that asserts `code` with one of `statuses` (any when empty), or null. */
function assertion(code: string, statuses: Set<number>): string | null {
  const token = new RegExp(`\\b${code}\\b`);
  const status = statuses.size ? new RegExp(`\\b(${[...statuses].join('|')})\\b`) : null;
  for (const { file, lines } of testFiles) {
    if (!lines.some((l) => ASSERTS.test(l))) continue;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (!token.test(line) || COMMENT.test(line)) continue;
      if (status && !status.test(lines.slice(Math.max(0, i - 3), i + 4).join('\n'))) continue;
      return `${file}:${i + 1}`;
    }
  }
  return null;
}

/** The other languages' clients' library sources (their tests, examples and benches excluded). */
const CLIENT_SOURCES = /^clients\/(go\/(?!.*_test\.go$).*\.go|python\/src\/.*\.py|jvm\/src\/main\/.*\.(kt|java)|rust\/src\/.*\.rs)$/;

/** code → the package and client source files that produce it. */
function producedCodes(): Map<string, string[]> {
  const tsSources = files.filter((f) => /\/packages\/[^/]+\/src\//.test(f) && /\.[cm]?ts$/.test(f) && !/\.test\.|\.d\.ts$/.test(f));
  const rustSources = files.filter((f) => /\/crates\/[^/]+\/src\/.*\.rs$/.test(f));
  const clientSources = files.filter((f) => CLIENT_SOURCES.test(relative(root, f)));
  const texts = [...tsSources, ...rustSources, ...clientSources].map((f) => ({ file: relative(root, f), text: readFileSync(f, 'utf8') }));
  const envNames = new Set(
    texts.flatMap(({ text }) =>
      [...text.matchAll(/(?:\benv(?:Int)?\(\s*'|process\.env\.|process\.env\[')(NEN_[A-Z0-9_]+)|\[1\] === '(NEN_[A-Z0-9_]+)'/g)].map(
        (m) => (m[1] ?? m[2]) as string,
      ),
    ),
  );
  const produced = new Map<string, string[]>();
  for (const { file, text } of texts) {
    const literal = /\.[cm]?ts$/.test(file) ? /'(NEN_[A-Z0-9_]+)'/g : file.endsWith('.py') ? /(["'])(NEN_[A-Z0-9_]+)\1/g : /"(NEN_[A-Z0-9_]+)"/g;
    for (const m of text.matchAll(literal)) {
      const code = m[m.length - 1] as string;
      if (envNames.has(code)) continue;
      produced.set(code, [...new Set([...(produced.get(code) ?? []), file])]);
    }
  }
  return produced;
}

describe('ERROR_CODES.md against the tests and the packages', () => {
  const listed = listedCodes();

  it('reads the catalog: the server, client, other and @nen/seal tables', () => {
    expect(listed.size).toBeGreaterThanOrEqual(50);
    expect(listed.get('NEN_AUTH_FAILED')).toEqual(new Set([401]));
    expect(listed.get('NEN_SEAL_WEBHOOK_HEADERS')).toEqual(new Set([400]));
    expect(listed.get('NEN_HANDSHAKE_FAILED')).toEqual(new Set());
    expect(testFiles.length).toBeGreaterThan(50);
  });

  it('every listed code is asserted by a test with its status (or exempt with a reason)', () => {
    const missing = [...listed]
      .filter(([code]) => !(code in EXEMPT))
      .filter(([code, statuses]) => assertion(code, statuses) === null)
      .map(([code, statuses]) =>
        statuses.size
          ? `${code}: no test asserts it with HTTP ${[...statuses].join(' or ')}; add a test that produces it and asserts e.g. { status: ${[...statuses][0]}, code: '${code}' }`
          : `${code}: no test asserts it; add a test that produces it and asserts its code (e.g. expect(err).toMatchObject({ code: '${code}' }))`,
      );
    expect(missing, 'listed in ERROR_CODES.md but never asserted (or add it to EXEMPT in this file with the reason it cannot be produced)').toEqual([]);
  });

  it('every exemption is still listed and still has no assertion (an exemption that a test now covers is removed)', () => {
    const stale = Object.keys(EXEMPT).filter((c) => !listed.has(c) || assertion(c, listed.get(c) as Set<number>) !== null);
    expect(stale, 'remove these from EXEMPT').toEqual([]);
  });

  it('every code a package can produce is listed', () => {
    const produced = producedCodes();
    expect(produced.has('NEN_SEAL_PAYLOAD') && produced.has('NEN_CRYPTO_AEAD') && !produced.has('NEN_SERVER_KEYS')).toBe(true);
    for (const lang of ['go', 'python', 'jvm', 'rust']) {
      const codes = [...produced].filter(([, where]) => where.some((f) => f.startsWith(`clients/${lang}/`)));
      expect(codes.length, `codes read from clients/${lang}`).toBeGreaterThan(10);
    }
    const unlisted = [...produced]
      .filter(([code]) => !listed.has(code))
      .map(
        ([code, where]) =>
          `${code} (produced in ${where.join(', ')}): add a row to the ERROR_CODES.md table of that package: | \`${code}\` | <status> | <meaning> |`,
      );
    expect(unlisted, 'produced by a package but missing from ERROR_CODES.md').toEqual([]);
  });
});
