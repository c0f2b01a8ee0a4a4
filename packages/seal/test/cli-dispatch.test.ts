/**
 * `nen seal` / `nen open` through the main `nen` CLI of @nen/server (packages/server/bin/nen.js),
 * which loads `@nen/seal/cli` dynamically: real child processes, the sealed file piped from one
 * into the other, as a user runs `nen seal -r PIN < file | nen open -i KEYFILE`. Checks that
 * @nen/seal resolves from @nen/server inside the workspace (root devDependency), the bytes round
 * trip, and a wrong key exits 1 with the stable code and writes nothing to stdout.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEM_ID, loadBackend, toBase64Url } from '@nen/core';
import { afterAll, describe, expect, it } from 'vitest';

const NEN = fileURLToPath(new URL('../../server/bin/nen.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'nen-seal-dispatch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], input: Uint8Array): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [NEN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout.on('data', (c: Buffer) => out.push(c));
    p.stderr.on('data', (c: Buffer) => err.push(c));
    p.on('error', reject);
    // A CLI that refuses its input (wrong key) exits before reading all of stdin: EPIPE on our side
    // of the pipe is then expected, and the exit code and stderr carry the verdict.
    p.stdin.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') reject(e);
    });
    p.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
    p.stdin.end(input);
  });
}

async function keyFile(name: string): Promise<{ file: string; pin: string }> {
  const b = await loadBackend('auto');
  const kp = b.generateKeyPair(KEM_ID.XWING);
  const file = join(dir, name);
  writeFileSync(file, `NEN_SERVER_KEYS=k1:${toBase64Url(kp.privateKey)}\n`);
  return { file, pin: `k1:${toBase64Url(kp.publicKey)}` };
}

describe('nen seal | nen open through @nen/server bin/nen.js', () => {
  it('round-trips a file and refuses the wrong key with NEN_SEAL_NO_MATCH, nothing on stdout', async () => {
    const k = await keyFile('right.env');
    const other = await keyFile('wrong.env');
    const pt = new Uint8Array(randomBytes(200_000));
    const sealed = await run(['seal', '-r', k.pin], pt);
    expect(sealed.stderr).toBe('');
    expect(sealed.code).toBe(0);
    expect(sealed.stdout.subarray(0, 21).toString()).toBe('age-encryption.org/v1');
    const opened = await run(['open', '-i', k.file], sealed.stdout);
    expect(opened.code).toBe(0);
    expect(Buffer.compare(opened.stdout, Buffer.from(pt))).toBe(0);
    const wrong = await run(['open', '-i', other.file], sealed.stdout);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout.length).toBe(0);
    expect(wrong.stderr).toContain('NEN_SEAL_NO_MATCH');
  }, 60_000);
});
