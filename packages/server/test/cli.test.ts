/**
 * `nen keygen` (bin of @nen/server: bin/nen.js runs dist/cli.js): prints NEN_SERVER_KEYS (which
 * the server accepts), NEXT_PUBLIC_NEN_SERVER_KEY (a pin with which a client authenticates that
 * server) and a fresh NEN_STORE_KEY, each with a comment saying where it goes; `--write` appends
 * them to .env.local without overwriting a name the file sets, and never writes a key without its
 * pin (or the reverse); the command is reachable as documented (`pnpm exec nen keygen` at the
 * repository root, `pnpm --filter demo exec nen keygen`); key parsing rejects bad input.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { createNen, memoryStore, parseServerKeys } from '../src/index.js';
import { appendEnv, envNames } from '../src/env-file.js';
import { serve } from './http-harness.js';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(pkgDir, '../..');
const cli = join(pkgDir, 'dist/cli.js');
const bin = join(pkgDir, 'bin/nen.js');
const tmp = mkdtempSync(join(tmpdir(), 'nen-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function nen(args: string[], cwd = tmp) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const value = (text: string, name: string) => new RegExp(`^${name}=(.+)$`, 'm').exec(text)?.[1];

describe('nen keygen', () => {
  printAndWrite();

  appendRefuseAndParse();
});

/** What keygen prints, and --write on a new .env.local. */
function printAndWrite(): void {
  it('prints NEN_SERVER_KEYS and a working NEXT_PUBLIC_NEN_SERVER_KEY pin (X-Wing and ML-KEM-768)', async () => {
    expect(existsSync(cli), 'run `pnpm --filter @nen/server build` first (dist/cli.js)').toBe(true);
    for (const kem of ['xwing', 'mlkem768']) {
      const out = execFileSync(process.execPath, [bin, 'keygen', '--kem', kem, '--kid', `t-${kem}`], { encoding: 'utf8' });
      const env = value(out, 'NEN_SERVER_KEYS')!;
      const pin = value(out, 'NEXT_PUBLIC_NEN_SERVER_KEY')!;
      const nen = createNen({ serverKeys: `old:${'A'.repeat(43)},${env}`, store: memoryStore({ shared: false }), backend: 'noble', logger: () => {} });
      const server = await serve({ '/api/nen/*': nen.routes, '/api/x': { POST: nen.withNen(async () => ({ ok: kem })) } });
      try {
        const client = createNenClient({ baseUrl: server.url, serverKey: pin, backend: 'noble' });
        expect(await (await client.fetch('/api/x', { method: 'POST' })).json()).toEqual({ ok: kem });
        expect(client.session?.keyId).toBe(`t-${kem}`);
      } finally {
        await server.close();
        await nen.close();
      }
    }
    // A fresh NEN_STORE_KEY for Redis deployments: 32 random bytes, base64url, new on every run.
    const storeKeys = [0, 1].map(() => value(execFileSync(process.execPath, [bin, 'keygen'], { encoding: 'utf8' }), 'NEN_STORE_KEY')!);
    for (const k of storeKeys) expect(Buffer.from(k, 'base64url').length).toBe(32);
    expect(storeKeys[0]).not.toBe(storeKeys[1]);
    expect(nen(['keygen', '--kem', 'rsa']).status).toBe(2);
    expect(nen(['keygen', '--bogus']).status).toBe(2);
    expect(nen(['keygen', '--help']).status).toBe(0);
  });

  it('says where each variable goes, as comments a dotenv file accepts', () => {
    const { status, stdout } = nen(['keygen']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/\.env\.local/);
    const lines = stdout.split('\n').filter((l) => l !== '');
    expect(lines.every((l) => l.startsWith('#') || /^[A-Z_]+=\S+$/.test(l))).toBe(true);
    expect([...envNames(stdout)]).toEqual(['NEN_SERVER_KEYS', 'NEXT_PUBLIC_NEN_SERVER_KEY', 'NEN_STORE_KEY']);
    expect(stdout).toMatch(/#[^\n]*SECRET[^\n]*\nNEN_SERVER_KEYS=/);
    expect(stdout).toMatch(/#[^\n]*public[^\n]*\nNEXT_PUBLIC_NEN_SERVER_KEY=/);
    expect(stdout).toMatch(/#[^\n]*Redis[^\n]*\n#[^\n]*\nNEN_STORE_KEY=/);
  });

  it('--write creates .env.local (mode 0600) with a matching key and pin, prints no secret, and a second run keeps it', async () => {
    const dir = mkdtempSync(join(tmp, 'w-'));
    const first = nen(['keygen', '--write', '--kid', 'w1'], dir);
    expect(first.status, first.stderr).toBe(0);
    const file = join(dir, '.env.local');
    const text = readFileSync(file, 'utf8');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const env = value(text, 'NEN_SERVER_KEYS')!;
    const pin = value(text, 'NEXT_PUBLIC_NEN_SERVER_KEY')!;
    const store = value(text, 'NEN_STORE_KEY')!;
    expect(parseServerKeys(env)[0]!.kid).toBe('w1');
    expect(first.stdout).toContain('NEN_SERVER_KEYS, NEXT_PUBLIC_NEN_SERVER_KEY, NEN_STORE_KEY');
    expect(first.stdout).toContain(pin);
    expect(first.stdout).not.toContain(env.split(':')[1]);
    expect(first.stdout).not.toContain(store);
    // The pair works: a server on the written key, a client pinned to the written pin.
    const server0 = createNen({ serverKeys: env, store: memoryStore({ shared: false }), backend: 'noble', logger: () => {} });
    const server = await serve({ '/api/nen/*': server0.routes, '/api/x': { POST: server0.withNen(async () => ({ ok: 1 })) } });
    try {
      const client = createNenClient({ baseUrl: server.url, serverKey: pin, backend: 'noble' });
      expect(await (await client.fetch('/api/x', { method: 'POST' })).json()).toEqual({ ok: 1 });
    } finally {
      await server.close();
      await server0.close();
    }
    const second = nen(['keygen', '--write'], dir);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/kept NEN_SERVER_KEYS, NEXT_PUBLIC_NEN_SERVER_KEY, NEN_STORE_KEY: already set/);
    expect(second.stdout).toMatch(/nothing written/);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
}

/** --write on an existing file or a half pair, the documented commands, and NEN_SERVER_KEYS parsing. */
function appendRefuseAndParse(): void {
  it('--write appends to an existing file: other lines and the mode kept, an existing NEN_STORE_KEY kept', () => {
    const dir = mkdtempSync(join(tmp, 'a-'));
    const file = join(dir, '.env.local');
    const before = '# mine\nDATABASE_URL=postgres://x\nexport NEN_STORE_KEY=keep-this-one-it-is-long-enough-0123456789';
    writeFileSync(file, before, { mode: 0o640 });
    const r = nen(['keygen', '--write'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/wrote NEN_SERVER_KEYS, NEXT_PUBLIC_NEN_SERVER_KEY to /);
    expect(r.stdout).toMatch(/kept NEN_STORE_KEY/);
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(`${before}\n`)).toBe(true);
    expect(after.match(/NEN_STORE_KEY=/g)).toHaveLength(1);
    expect(value(after, 'NEN_SERVER_KEYS')).toBeDefined();
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it('--write refuses a half pair (a key without its pin or the reverse): exit 1, file untouched, the message names the fix', () => {
    for (const present of ['NEN_SERVER_KEYS', 'NEXT_PUBLIC_NEN_SERVER_KEY']) {
      const dir = mkdtempSync(join(tmp, 'h-'));
      const file = join(dir, 'custom.env');
      const before = `${present}=something\n`;
      writeFileSync(file, before);
      const r = nen(['keygen', `--write=${file}`], dir);
      expect(r.status).toBe(1);
      const missing = present === 'NEN_SERVER_KEYS' ? 'NEXT_PUBLIC_NEN_SERVER_KEY' : 'NEN_SERVER_KEYS';
      expect(r.stderr).toContain(`sets ${present} but not ${missing}`);
      expect(r.stderr).toContain('nothing was written');
      expect(readFileSync(file, 'utf8')).toBe(before);
    }
    expect(() => appendEnv(join(tmp, 'none.env'), [], [['A', 'B']])).not.toThrow();
    writeFileSync(join(tmp, 'half.env'), 'A=1\n');
    expect(() => appendEnv(join(tmp, 'half.env'), [{ name: 'C', value: '1', comment: [] }], [['A', 'B']])).toThrow(
      expect.objectContaining({ code: 'NEN_CONFIG', name: 'EnvFileConflict' }),
    );
  });

  it('runs as documented: `pnpm exec nen keygen` at the repository root and `pnpm --filter demo exec nen keygen`', () => {
    for (const args of [
      ['exec', 'nen', 'keygen'],
      ['--filter', 'demo', 'exec', 'nen', 'keygen'],
    ]) {
      const r = spawnSync('pnpm', args, { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
      expect(r.status, `pnpm ${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(value(r.stdout, 'NEN_SERVER_KEYS')).toBeDefined();
      expect(value(r.stdout, 'NEXT_PUBLIC_NEN_SERVER_KEY')).toBeDefined();
    }
  });

  it('NEN_SERVER_KEYS parsing: both formats, strict', () => {
    const x = 'A'.repeat(43);
    expect(parseServerKeys(`a:${x},b:${'A'.repeat(86)}`).map((k) => [k.kid, k.kem])).toEqual([
      ['a', 0x647a],
      ['b', 0x41],
    ]);
    expect(parseServerKeys(JSON.stringify({ j: x }))[0]!.kid).toBe('j');
    for (const bad of ['', 'nocolon', `a:${x},a:${x}`, 'a:AAAA', `bad id:${x}`, '{"a":1}', '{oops']) {
      expect(() => parseServerKeys(bad), bad).toThrow(expect.objectContaining({ code: 'NEN_CONFIG' }));
    }
  });
}
