/**
 * The CLI (runSealCli) in-process with injected stdin/stdout: round trips with `nen keygen`
 * style keys and age keys, armor, and the failure rules: stable codes on stderr, exit 1, nothing
 * written for wrong keys / damaged headers, nothing written with -o for a damaged payload, only
 * verified chunks written to stdout for a damaged payload, exit 2 for usage errors.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { KEM_ID, loadBackend, toBase64Url } from '@nen/core';
import { afterAll, describe, expect, it } from 'vitest';
import { runSealCli } from './cli.js';
import { encodeBech32, parseHeader, x25519RecipientOf } from './index.js';
import { pqKeyPair, sourceOf } from '../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'nen-seal-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[], input: Uint8Array) {
  const out: Uint8Array[] = [];
  const err: string[] = [];
  const code = await runSealCli(argv, { stdin: sourceOf(input, 4096), stdout: { write: (c) => void out.push(c) }, stderr: (l) => void err.push(l) });
  return { code, stdout: Buffer.concat(out), stderr: err.join('\n') };
}

async function nenKeygenFile(name: string) {
  const b = await loadBackend('auto');
  const kp = b.generateKeyPair(KEM_ID.XWING);
  const file = join(dir, name);
  const pin = `k1:${toBase64Url(kp.publicKey)}`;
  writeFileSync(file, `# Nen server key\nNEN_SERVER_KEYS=k1:${toBase64Url(kp.privateKey)}\nNEXT_PUBLIC_NEN_SERVER_KEY=${pin}\nNEN_STORE_KEY=abc\n`);
  return { file, pin };
}

describe('nen seal / nen open', () => {
  it('round-trips with a nen keygen key (pin → keyfile) and an age key, armored and binary', async () => {
    const nk = await nenKeygenFile('nen.env');
    const ak = await pqKeyPair();
    const akFile = join(dir, 'age.key');
    writeFileSync(akFile, `${ak.identity}\n`);
    const pt = new Uint8Array(randomBytes(300_000));
    for (const armor of [[], ['-a']]) {
      const s = await cli(['seal', '-r', nk.pin, '-r', ak.recipient, ...armor], pt);
      expect(s.code).toBe(0);
      if (armor.length) expect(s.stdout.toString().startsWith('-----BEGIN AGE ENCRYPTED FILE-----')).toBe(true);
      const viaFile = await cli(['seal', '-R', nk.file], pt);
      expect((await cli(['open', '-i', nk.file], viaFile.stdout)).stdout.length).toBe(pt.length);
      for (const f of [nk.file, akFile]) {
        const o = await cli(['open', '-i', f], s.stdout);
        expect(o.code).toBe(0);
        expect(Buffer.compare(o.stdout, Buffer.from(pt))).toBe(0);
      }
    }
  });

  it('wrong key: exit 1, NEN_SEAL_NO_MATCH, nothing written', async () => {
    const a = await nenKeygenFile('a.env');
    const b = await nenKeygenFile('b.env');
    const s = await cli(['seal', '-r', a.pin], Buffer.from('secret'));
    const o = await cli(['open', '-i', b.file], s.stdout);
    expect(o.code).toBe(1);
    expect(o.stderr).toMatch(/no identity matches.*\[NEN_SEAL_NO_MATCH\]/);
    expect(o.stdout.length).toBe(0);
  });

  it('damaged header: exit 1, NEN_SEAL_HMAC / NEN_SEAL_HEADER, nothing written', async () => {
    const a = await nenKeygenFile('h.env');
    const s = await cli(['seal', '-r', a.pin], Buffer.from('secret'));
    const mac = s.stdout.indexOf('\n---') + 6;
    const bad = Buffer.from(s.stdout);
    bad[mac] = bad[mac] === 0x41 ? 0x42 : 0x41;
    const o = await cli(['open', '-i', a.file], bad);
    expect(o.code).toBe(1);
    expect(o.stderr).toMatch(/\[NEN_SEAL_(HMAC|HEADER)\]/);
    expect(o.stdout.length).toBe(0);
    const g = await cli(['open', '-i', a.file], Buffer.from('not an age file\n'));
    expect(g.stderr).toMatch(/\[NEN_SEAL_HEADER\]/);
  });

  it('damaged payload: -o writes nothing (no temp left); stdout gets only the verified chunks', async () => {
    const a = await nenKeygenFile('p.env');
    const pt = new Uint8Array(randomBytes(3 * 65536 + 7));
    const s = await cli(['seal', '-r', a.pin], pt);
    const bad = Buffer.from(s.stdout);
    const payload = parseHeader(bad).length + 16;
    bad[payload + 2 * 65552 + 5] = (bad[payload + 2 * 65552 + 5] as number) ^ 1; // third chunk
    const out = join(dir, 'out.bin');
    const f = await cli(['open', '-i', a.file, '-o', out], bad);
    expect(f.code).toBe(1);
    expect(f.stderr).toMatch(/\[NEN_SEAL_PAYLOAD\]/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).some((n) => n.includes('.tmp'))).toBe(false);
    const o = await cli(['open', '-i', a.file], bad);
    expect(o.code).toBe(1);
    expect(Buffer.compare(o.stdout, Buffer.from(pt.subarray(0, 2 * 65536)))).toBe(0);
    const ok = await cli(['open', '-i', a.file, '-o', out], s.stdout);
    expect(ok.code).toBe(0);
    expect(Buffer.compare(readFileSync(out), Buffer.from(pt))).toBe(0);
  });

  it("mixed post-quantum and X25519 recipients: refused in the CLI's own words, allowed with --allow-mixed-recipients", async () => {
    const pq = await pqKeyPair();
    const sk = new Uint8Array(randomBytes(32));
    const x = x25519RecipientOf(sk);
    const refused = await cli(['seal', '-r', pq.recipient, '-r', x], Buffer.from('mixed'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/pass --allow-mixed-recipients to override \[NEN_SEAL_RECIPIENT\]$/);
    expect(refused.stderr).not.toContain('allowMixedRecipients');
    expect(refused.stdout.length).toBe(0);
    const allowed = await cli(['seal', '--allow-mixed-recipients', '-r', pq.recipient, '-r', x], Buffer.from('mixed'));
    expect(allowed.code).toBe(0);
    const xFile = join(dir, 'x25519.key');
    writeFileSync(xFile, `${encodeBech32('AGE-SECRET-KEY-', sk, true)}\n`);
    const pqFile = join(dir, 'pq.key');
    writeFileSync(pqFile, `${pq.identity}\n`);
    for (const f of [xFile, pqFile]) expect((await cli(['open', '-i', f], allowed.stdout)).stdout.toString()).toBe('mixed');
  });

  it('usage errors exit 2; bad recipient / key file exit 1 with a code', async () => {
    for (const argv of [['seal'], ['open'], ['frobnicate'], ['seal', '-r'], ['open', '-i', 'k', '--armor']]) {
      const u = await cli(argv, Buffer.from(''));
      expect(u.code, argv.join(' ')).toBe(2); // the exit status of NEN_SEAL_USAGE
      expect(u.stderr).toMatch(/^nen: .* \[NEN_SEAL_USAGE\]\nusage: nen seal/);
    }
    const r = await cli(['seal', '-r', 'age1nope'], Buffer.from('x'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[NEN_SEAL_RECIPIENT\]/);
    const k = await cli(['open', '-i', join(dir, 'missing.key')], Buffer.from('x'));
    expect(k.code).toBe(1);
    expect(k.stderr).toMatch(/\[NEN_SEAL_KEY\]/);
  });
});
