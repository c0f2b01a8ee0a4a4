/**
 * ERROR_CODES.md against the other languages' clients: every `NEN_…` code literal in the shipped
 * sources of clients/go (non-test .go files outside cmd/), clients/python/src, clients/jvm/src/main
 * and clients/rust/src (src/bin excepted) is a code the catalog lists, so no client reports a code
 * the documentation does not explain. (core, client, server, the Rust crate: ./error-codes.test.ts;
 * @nen/seal: packages/seal/test/error-codes.test.ts.)
 *
 * Pitfalls:
 *  - Only the shipped sources are read: tests, benches and drivers set environment variables
 *    (`NEN_LOG`, `NEN_HANDSHAKE_RATE`, ...) that share the prefix and are no codes.
 *  - The files are the tracked ones (git ls-files): a new, uncommitted client file is not read.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const md = readFileSync(join(root, 'ERROR_CODES.md'), 'utf8');
const listed = new Set([...md.matchAll(/`(NEN_[A-Z0-9_]+)`/g)].map((m) => m[1] as string));

function shipped(): string[] {
  const all = execFileSync('git', ['ls-files', '-z', '--', 'clients'], { cwd: root, encoding: 'utf8' }).split('\0');
  return all.filter(
    (f) =>
      (/^clients\/go\/[^/]+\.go$/.test(f) && !f.endsWith('_test.go')) ||
      /^clients\/python\/src\/.+\.py$/.test(f) ||
      /^clients\/jvm\/src\/main\/.+\.(kt|java)$/.test(f) ||
      (/^clients\/rust\/src\/.+\.rs$/.test(f) && !f.startsWith('clients/rust/src/bin/')),
  );
}

describe("ERROR_CODES.md lists every code of the other languages' clients", () => {
  const files = shipped();
  const codes = new Map<string, string>();
  for (const f of files) {
    for (const m of readFileSync(join(root, f), 'utf8').matchAll(/["'](NEN_[A-Z0-9_]+)["']/g)) codes.set(m[1] as string, f);
  }

  it('reads each client', () => {
    for (const lang of ['go', 'python', 'jvm', 'rust']) expect(files.filter((f) => f.startsWith(`clients/${lang}/`)).length, lang).toBeGreaterThan(3);
    expect(codes.size).toBeGreaterThan(20);
  });

  it('no client code is missing from the catalog', () => {
    const missing = [...codes].filter(([c]) => !listed.has(c)).map(([c, f]) => `${c} (${f})`);
    expect(missing).toEqual([]);
  });
});
