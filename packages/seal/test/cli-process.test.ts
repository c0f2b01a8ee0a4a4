/**
 * `nen-seal open` as a real process on the Node running the suite (process.execPath: the suite
 * runs this file under Node 20 and Node 24), stdin from a file and from a pipe: a tampered,
 * truncated or extended 300 KB file exits 1 with `[NEN_SEAL_PAYLOAD]` and no stack trace; with -o
 * neither the output file nor a temporary file remains; to stdout exactly the chunks verified
 * before the first bad one are written, nothing after it.
 *
 * Regression: on Node 20, stream.Readable.toWeb(process.stdin) enqueued a 'data' event after the
 * pipe had cancelled it (the first bad chunk), and the process died of an uncaught
 * ERR_INVALID_STATE, leaving a 0-byte `out.bin.nen-<hex>.tmp`. Needs the built dist/bin.js.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEM_ID, loadBackend, toBase64Url } from '@nen/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHeader, seal } from '../src/index.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const CH = 65536;
const ENC = CH + 16;
const dir = mkdtempSync(join(tmpdir(), 'nen-seal-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs the bin with stdin from `file` (an fd: a regular file) or piped from memory. */
function run(args: string[], input: { file: string } | { pipe: Uint8Array }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const fd = 'file' in input ? openSync(input.file, 'r') : null;
    const p = spawn(process.execPath, [BIN, ...args], { stdio: [fd ?? 'pipe', 'pipe', 'pipe'], timeout: 30_000, cwd: dir });
    if (fd !== null) closeSync(fd);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout?.on('data', (c: Buffer) => out.push(c));
    p.stderr?.on('data', (c: Buffer) => err.push(c));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
    if ('pipe' in input && p.stdin) {
      // The CLI stops reading at the first bad chunk: EPIPE on our end of the pipe is expected.
      p.stdin.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'EPIPE') reject(e);
      });
      p.stdin.end(input.pipe);
    }
  });
}

let keyFile = '';
let pt: Uint8Array = new Uint8Array(0);
let ct: Uint8Array = new Uint8Array(0);
let payload = 0; // offset of the first STREAM chunk

beforeAll(async () => {
  const b = await loadBackend('auto');
  const kp = b.generateKeyPair(KEM_ID.XWING);
  keyFile = join(dir, 'id.txt');
  writeFileSync(keyFile, `NEN_SERVER_KEYS=k1:${toBase64Url(kp.privateKey)}\n`);
  pt = new Uint8Array(randomBytes(4 * CH + 37_856)); // 300,000 bytes: four full chunks and a short final one
  ct = await seal(pt, `k1:${toBase64Url(kp.publicKey)}`);
  payload = parseHeader(ct).length + 16;
});

const flip = (at: () => number) => () => {
  const c = Buffer.from(ct);
  const i = at();
  c[i] = (c[i] as number) ^ 1;
  return c;
};

// name, damaged file, plaintext bytes verified before the damage
const CASES: [string, () => Uint8Array, number][] = [
  ['a flipped byte in the first chunk', flip(() => payload + 100), 0],
  ['a flipped byte in the third chunk', flip(() => payload + 2 * ENC + 5), 2 * CH],
  ['a flipped byte in the final chunk', flip(() => ct.length - 1), 4 * CH],
  ['truncated inside the final chunk', () => ct.subarray(0, ct.length - 1000), 4 * CH],
  ['truncated at a chunk boundary (final chunk dropped)', () => ct.subarray(0, payload + 4 * ENC), 4 * CH],
  ['extended by one byte', () => Buffer.concat([ct, Buffer.from([0])]), 4 * CH],
  ['extended by 70,000 bytes', () => Buffer.concat([ct, randomBytes(70_000)]), 4 * CH],
];

function expectPayloadFailure(r: Run): void {
  expect(r.stderr).not.toMatch(/ERR_INVALID_STATE|\n\s+at /);
  expect(r.stderr.trim()).toMatch(/^nen: invalid age payload: .*\[NEN_SEAL_PAYLOAD\]$/);
  expect(r.code).toBe(1);
}

describe(`nen-seal open as a process on Node ${process.versions.node}`, () => {
  it('opens the intact file from a file and from a pipe, to -o and to stdout', async () => {
    const file = join(dir, 'ok.age');
    writeFileSync(file, ct);
    const out = join(dir, 'ok.bin');
    const viaFile = await run(['open', '-i', keyFile, '-o', out], { file });
    expect(viaFile.stderr).toBe('');
    expect(viaFile.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    rmSync(out);
    const viaPipe = await run(['open', '-i', keyFile], { pipe: ct });
    expect(viaPipe.code).toBe(0);
    expect(Buffer.compare(viaPipe.stdout, Buffer.from(pt))).toBe(0);
  });

  for (const [name, damage, verified] of CASES) {
    it(`${name}: NEN_SEAL_PAYLOAD, exit 1, no output or temporary file, stdout only the verified chunks`, async () => {
      const bad = damage();
      const file = join(dir, 'bad.age');
      writeFileSync(file, bad);
      for (const input of [{ file }, { pipe: bad }]) {
        const out = join(dir, 'out.bin');
        const r = await run(['open', '-i', keyFile, '-o', out], input);
        expectPayloadFailure(r);
        expect(r.stdout.length).toBe(0);
        expect(readdirSync(dir).filter((n) => n.startsWith('out.bin'))).toEqual([]);
        const s = await run(['open', '-i', keyFile], input);
        expectPayloadFailure(s);
        expect(s.stdout.length).toBe(verified);
        expect(Buffer.compare(s.stdout, Buffer.from(pt.subarray(0, verified)))).toBe(0);
      }
    });
  }
});
