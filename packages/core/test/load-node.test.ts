/**
 * Loading proof in plain Node.js ESM (no bundler, no vitest transforms): a child `node` process
 * imports the BUILT package by name ('@nen/core', resolved through package.json `exports`) and
 * uses it, once per export condition:
 *  - default: loadBackend() is the node backend, 'wasm' initialises from embedded bytes;
 *  - edge-light: the Edge entry, 'auto' = wasm, 'node' unsupported;
 *  - browser: 'auto' = @noble without loading (or warning about) Wasm; the URL-based Wasm init
 *    cannot fetch a file: URL in Node, which stands in for a browser whose CSP blocks Wasm: an
 *    explicit 'wasm' rejects with NEN_CRYPTO_UNSUPPORTED.
 * Runs under whichever Node runs vitest (scripts/test.sh runs it under Node 20 and 24). Needs the
 * built package (`pnpm --filter @nen/core build`): without it every case fails, none is skipped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = existsSync(join(pkg, 'dist/index.js')) && existsSync(join(pkg, 'wasm/nen_core_bytes.js'));

const SCRIPT = `
const { loadBackend, KEM_ID, NenCryptoError } = await import('@nen/core');
const out = {};
const te = new TextEncoder();
const hex = (b) => Buffer.from(b).toString('hex');
const auto = await loadBackend();
out.auto = auto.name;
out.autoAgain = (await loadBackend()) === auto;
out.sha = hex(auto.sha256(te.encode('abc')));
for (const kind of ['wasm', 'node', 'noble']) {
  try {
    const b = await loadBackend(kind);
    const kp = b.generateKeyPair(KEM_ID.XWING);
    const s = b.setupBaseSExport(KEM_ID.XWING, kp.publicKey, te.encode('i'), te.encode('c'), 32);
    const rk = b.createRecipientKey(KEM_ID.XWING, kp.privateKey);
    out[kind] = hex(rk.setupBaseRExport(s.enc, te.encode('i'), te.encode('c'), 32)) === hex(s.exported) ? 'ok' : 'mismatch';
    rk.dispose();
  } catch (e) {
    out[kind] = e instanceof NenCryptoError ? e.code : 'untyped:' + String(e);
  }
}
console.log('RESULT ' + JSON.stringify(out));
`;

function runNode(conditions: string[]): { result: Record<string, unknown>; stderr: string } {
  if (!built) throw new Error('@nen/core is not built: run `pnpm --filter @nen/core build` first');
  const r = spawnSync(process.execPath, [...conditions.map((c) => `--conditions=${c}`), '--input-type=module', '-e', SCRIPT], {
    cwd: pkg,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`no result (status ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return { result: JSON.parse(line.slice(7)) as Record<string, unknown>, stderr: r.stderr };
}

describe('plain Node ESM import of the built @nen/core', () => {
  it('the package is built (dist/ and wasm/)', () => {
    expect(built, 'run `pnpm --filter @nen/core build` before this test').toBe(true);
  });

  it('default condition: auto = node, wasm from embedded bytes', () => {
    const { result, stderr } = runNode([]);
    expect(result).toEqual({
      auto: 'node',
      autoAgain: true,
      sha: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      wasm: 'ok',
      node: 'ok',
      noble: 'ok',
    });
    expect(stderr).not.toMatch(/nen:/);
  });

  it('edge-light condition: auto = wasm, no node backend', () => {
    const { result } = runNode(['edge-light']);
    expect(result).toMatchObject({ auto: 'wasm', wasm: 'ok', node: 'NEN_CRYPTO_UNSUPPORTED', noble: 'ok' });
  });

  it('browser condition: auto = noble (no Wasm attempt, no warning); explicit wasm without a loadable .wasm rejects', () => {
    const { result, stderr } = runNode(['browser']);
    expect(result).toMatchObject({ auto: 'noble', autoAgain: true, wasm: 'NEN_CRYPTO_UNSUPPORTED', node: 'NEN_CRYPTO_UNSUPPORTED', noble: 'ok' });
    expect(stderr).not.toMatch(/using the slower pure-JS @noble backend/);
  });
});

it('the package is built (dist/ and wasm/) so the loading proofs run', () => {
  expect(built, 'run `pnpm --filter @nen/core build` first').toBe(true);
});
