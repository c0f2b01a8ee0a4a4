/**
 * Interop, both directions, with the real `age` command (v1.3+, built by scripts/setup.sh into
 * .tools/go/bin; NEN_AGE_BIN overrides) and with typage (`age-encryption` on npm): post-quantum
 * and X25519 recipients, several recipients, armor, and a 100 MB stream piped through `age`
 * without holding it in memory. A missing `age` binary FAILS this file (it is a real part).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Decrypter, Encrypter, armor as typageArmor, generateHybridIdentity, generateX25519Identity, identityToRecipient } from 'age-encryption';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, openStream, openText, seal, sealArmored, sealStream } from '../src/index.js';
import { pqKeyPair } from './helpers.js';

const AGE = process.env.NEN_AGE_BIN ?? join(import.meta.dirname, '../../../.tools/go/bin/age');
const AGE_KEYGEN = join(AGE, '../age-keygen');
let dir = '';

function run(cmd: string, args: string[], input?: Uint8Array): Buffer {
  const r = spawnSync(cmd, args, { input, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** age-keygen [-pq]: the identity file path and the recipient. */
function ageKeygen(name: string, pq: boolean): { file: string; recipient: string } {
  const file = join(dir, name);
  run(AGE_KEYGEN, [...(pq ? ['-pq'] : []), '-o', file]);
  return { file, recipient: run(AGE_KEYGEN, ['-y', file]).toString().trim() };
}

beforeAll(() => {
  if (!existsSync(AGE)) throw new Error(`the age command is missing at ${AGE}: run scripts/setup.sh (it builds filippo.io/age v1.3.2)`);
  const v = run(AGE, ['--version']).toString().trim();
  const [maj, min] = v.replace(/^v/, '').split('.').map(Number);
  if (!(maj === 1 && (min as number) >= 3)) throw new Error(`age ${v} is older than v1.3`);
  dir = mkdtempSync(join(tmpdir(), 'nen-seal-interop-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('interop with the age command', () => {
  it('ours → age: several PQ recipients (ours and age-keygen -pq), binary and armored', async () => {
    const a = ageKeygen('a.key', true);
    const ours = await pqKeyPair();
    const pt = new Uint8Array(randomBytes(200_000));
    for (const armor of [false, true]) {
      const ct = await seal(pt, [a.recipient, ours.recipient], { armor });
      expect(Buffer.compare(run(AGE, ['-d', '-i', a.file], ct), Buffer.from(pt))).toBe(0);
      const oursFile = join(dir, 'ours.key');
      writeFileSync(oursFile, `# ours\n${ours.identity}\n`);
      expect(Buffer.compare(run(AGE, ['-d', '-i', oursFile], ct), Buffer.from(pt))).toBe(0);
    }
  });

  it('age → ours: several recipients, -a armor, X25519 too', async () => {
    const a = await pqKeyPair();
    const b = await pqKeyPair();
    const pt = new Uint8Array(randomBytes(150_000));
    for (const flags of [[], ['-a']]) {
      const ct = run(AGE, ['-e', ...flags, '-r', a.recipient, '-r', b.recipient], pt);
      expect(Buffer.compare(Buffer.from(await open(ct, a.identity)), Buffer.from(pt))).toBe(0);
      expect(Buffer.compare(Buffer.from(await open(ct, b.identity)), Buffer.from(pt))).toBe(0);
    }
    const x = ageKeygen('x.key', false);
    const xIdentity = run('grep', ['^AGE-SECRET-KEY-1', x.file]).toString().trim();
    const ct = run(AGE, ['-e', '-r', x.recipient], Buffer.from('classic'));
    expect(await openText(ct, xIdentity)).toBe('classic');
    expect(run(AGE, ['-d', '-i', x.file], await seal('back', x.recipient)).toString()).toBe('back');
  });

  it('age refuses our file for a wrong key; we refuse age files for a wrong key (NO_MATCH)', async () => {
    const a = await pqKeyPair();
    const other = ageKeygen('other.key', true);
    const r = spawnSync(AGE, ['-d', '-i', other.file], { input: await seal('x', a.recipient) });
    expect(r.status).not.toBe(0);
    const ct = run(AGE, ['-e', '-r', other.recipient], Buffer.from('x'));
    await expect(open(ct, a.identity)).rejects.toMatchObject({ code: 'NEN_SEAL_NO_MATCH' });
  });

  it('100 MB stream both ways, piped through age (constant memory, SHA-256 compared)', async () => {
    const k = await pqKeyPair();
    const keyFile = join(dir, 'stream.key');
    writeFileSync(keyFile, `${k.identity}\n`);
    const block = new Uint8Array(randomBytes(1 << 20));
    const expected = createHash('sha256');
    for (let i = 0; i < 100; i++) expected.update(block);
    const want = expected.digest('hex');
    const source = () => {
      let left = 100;
      return new ReadableStream<Uint8Array>({ pull: (c) => (left-- === 0 ? c.close() : c.enqueue(block)) });
    };
    const hashSink = (h: ReturnType<typeof createHash>) =>
      new Writable({
        write(c, _e, cb) {
          h.update(c);
          cb();
        },
      });

    // ours seal → age -d
    const dec = spawn(AGE, ['-d', '-i', keyFile], { stdio: ['pipe', 'pipe', 'inherit'] });
    const h1 = createHash('sha256');
    const exit1 = new Promise((res) => dec.on('close', res));
    await Promise.all([pipeline(Readable.fromWeb(sealStream(source(), k.recipient) as never), dec.stdin), pipeline(dec.stdout, hashSink(h1))]);
    expect(await exit1).toBe(0);
    expect(h1.digest('hex')).toBe(want);

    // age -e → ours open
    const enc = spawn(AGE, ['-e', '-r', k.recipient], { stdio: ['pipe', 'pipe', 'inherit'] });
    const h2 = createHash('sha256');
    const exit2 = new Promise((res) => enc.on('close', res));
    const opened = openStream(Readable.toWeb(enc.stdout) as ReadableStream<Uint8Array>, k.identity);
    await Promise.all([pipeline(Readable.fromWeb(source() as never), enc.stdin), pipeline(Readable.fromWeb(opened as never), hashSink(h2))]);
    expect(await exit2).toBe(0);
    expect(h2.digest('hex')).toBe(want);
  });
});

describe('interop with typage (age-encryption)', () => {
  it('ours → typage and typage → ours: hybrid recipients, several, armored', async () => {
    const tId = await generateHybridIdentity();
    const tRecipient = await identityToRecipient(tId);
    const ours = await pqKeyPair();
    const text = 'typage interop ✓';
    const d = new Decrypter();
    d.addIdentity(tId);
    expect(await d.decrypt(await seal(text, [tRecipient, ours.recipient]), 'text')).toBe(text);
    expect(await d.decrypt(typageArmor.decode(await sealArmored(text, tRecipient)), 'text')).toBe(text);
    const e = new Encrypter();
    e.addRecipient(tRecipient);
    e.addRecipient(ours.recipient);
    const ct = await e.encrypt(text);
    expect(await openText(ct, ours.identity)).toBe(text);
    expect(await openText(typageArmor.encode(ct), ours.identity)).toBe(text);
  });

  it('X25519 both ways', async () => {
    const tId = await generateX25519Identity();
    const r = await identityToRecipient(tId);
    const d = new Decrypter();
    d.addIdentity(tId);
    expect(await d.decrypt(await seal('x', r), 'text')).toBe('x');
    const e = new Encrypter();
    e.addRecipient(r);
    expect(await openText(await e.encrypt('y'), tId)).toBe('y');
  });

  it('100 MB stream both ways with typage streams (SHA-256 compared)', async () => {
    const tId = await generateHybridIdentity();
    const tRecipient = await identityToRecipient(tId);
    const block = new Uint8Array(randomBytes(1 << 20));
    const want = createHash('sha256');
    for (let i = 0; i < 100; i++) want.update(block);
    const wantHex = want.digest('hex');
    const source = () => {
      let left = 100;
      return new ReadableStream<Uint8Array>({ pull: (c) => (left-- === 0 ? c.close() : c.enqueue(block)) });
    };
    const hashOf = async (s: ReadableStream<Uint8Array>) => {
      const h = createHash('sha256');
      for await (const c of s as unknown as AsyncIterable<Uint8Array>) h.update(c);
      return h.digest('hex');
    };
    const d = new Decrypter();
    d.addIdentity(tId);
    expect(await hashOf(await d.decrypt(sealStream(source(), tRecipient)))).toBe(wantHex);
    const e = new Encrypter();
    e.addRecipient(tRecipient);
    expect(await hashOf(openStream(await e.encrypt(source()), tId))).toBe(wantHex);
  });
});
