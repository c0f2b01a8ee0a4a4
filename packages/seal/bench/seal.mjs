#!/usr/bin/env node
/**
 * @nen/seal figures, side by side in one run with typage (age-encryption) and the age command
 * (.tools/go/bin/age, built by scripts/setup.sh). Not a test: prints medians, asserts nothing.
 *
 *  1. per-recipient wrap / unwrap (mlkem768x25519 and X25519): ours (Recipient.wrap /
 *     Identity.unwrap) vs typage (a whole encrypt / decrypt of 1 byte, which is dominated by them);
 *  2. sealing to 1,000 post-quantum recipients (target ≤ 0.2 s), and opening with the last one
 *     (age recipients are anonymous: the identity tries stanzas in order);
 *  3. 100 MB stream throughput in Node, seal and open (target ≥ 500 MB/s), vs typage streams and
 *     the age command fed through a pipe (process start-up included);
 *  4. overhead bytes: per recipient stanza, per 64 KiB chunk, fixed.
 *
 * Usage: node bench/seal.mjs [--quick]     (after `pnpm turbo run build --filter=@nen/seal`)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBackend } from '@nen/core';
import { Decrypter, Encrypter, generateHybridIdentity, generateX25519Identity, identityToRecipient } from 'age-encryption';
import {
  openStream,
  parseHeader,
  parseIdentity,
  parseRecipient,
  seal,
  open,
  sealStream,
  encodeIdentity,
  encodeRecipient,
  xwingPublicKey,
} from '../dist/index.js';

const quick = process.argv.includes('--quick');
const AGE = join(import.meta.dirname, '../../../.tools/go/bin/age');
const MB = 1 << 20;
const now = () => performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const b = await loadBackend('auto');

async function timeIt(fn, n) {
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t = now();
    await fn(i);
    xs.push(now() - t);
  }
  return median(xs);
}

function pqKey() {
  const seed = b.randomBytes(32);
  return { identity: encodeIdentity(seed), recipient: encodeRecipient(xwingPublicKey(b, seed)) };
}

const rows = [];
const row = (what, ours, typage, ageCmd, note = '') => rows.push({ what, ours, typage, age: ageCmd, note });

// 1. per-recipient wrap / unwrap
{
  const n = quick ? 50 : 200;
  const k = pqKey();
  const r = parseRecipient(k.recipient);
  const id = parseIdentity(k.identity);
  const fileKey = b.randomBytes(16);
  const stanzas = r.wrap(b, fileKey);
  const tId = await generateHybridIdentity();
  const tR = await identityToRecipient(tId);
  const te = new Encrypter();
  te.addRecipient(tR);
  const td = new Decrypter();
  td.addIdentity(tId);
  const tct = await te.encrypt('x');
  const oursWrap = [],
    oursUnwrap = [],
    tWrap = [],
    tUnwrap = [];
  for (let round = 0; round < 5; round++) {
    oursWrap.push(await timeIt(() => r.wrap(b, fileKey), n / 5));
    tWrap.push(await timeIt(() => te.encrypt('x'), n / 5));
    oursUnwrap.push(await timeIt(() => id.unwrap(b, stanzas), n / 5));
    tUnwrap.push(await timeIt(() => td.decrypt(tct), n / 5));
  }
  row('mlkem768x25519 wrap, per recipient', median(oursWrap) * 1000, median(tWrap) * 1000, undefined, 'µs; typage = whole 1-byte encrypt');
  row('mlkem768x25519 unwrap, per recipient', median(oursUnwrap) * 1000, median(tUnwrap) * 1000, undefined, 'µs; typage = whole 1-byte decrypt');

  const xsk = b.randomBytes(32);
  const { X25519Identity, X25519Recipient } = await import('../dist/index.js');
  const { x25519 } = await import('@noble/curves/ed25519.js');
  const xr = new X25519Recipient(x25519.getPublicKey(xsk));
  const xid = new X25519Identity(xsk);
  const xst = xr.wrap(b, fileKey);
  const txId = await generateX25519Identity();
  const txe = new Encrypter();
  txe.addRecipient(await identityToRecipient(txId));
  row('X25519 wrap, per recipient', (await timeIt(() => xr.wrap(b, fileKey), n)) * 1000, (await timeIt(() => txe.encrypt('x'), n)) * 1000, undefined, 'µs');
  row('X25519 unwrap, per recipient', (await timeIt(() => xid.unwrap(b, xst), n)) * 1000, undefined, undefined, 'µs');
}

// 2. 1,000 recipients
const dir = mkdtempSync(join(tmpdir(), 'nen-seal-bench-'));
{
  const keys = Array.from({ length: 1000 }, pqKey);
  const recipients = keys.map((k) => k.recipient);
  const lastId = parseIdentity(keys[999].identity);
  let ct;
  // Recipients as strings: parsing (Bech32, key import) is part of sealing to a group.
  const tSeal = await timeIt(async () => (ct = await seal('group message', recipients)), quick ? 2 : 3);
  const tOpen = await timeIt(() => open(ct, lastId), quick ? 2 : 3);
  const te = new Encrypter();
  for (const r of recipients) te.addRecipient(r);
  const tTyp = await timeIt(() => te.encrypt('group message'), quick ? 1 : 2);
  let tAge;
  if (existsSync(AGE)) {
    const rf = join(dir, 'r.txt');
    writeFileSync(rf, recipients.join('\n'));
    tAge = await timeIt(() => runAge(['-e', '-R', rf], 1000), quick ? 1 : 2);
    const t1 = await timeIt(() => runAge(['-e', '-r', recipients[0]], 1000), 3);
    row('age process start-up + 1 recipient (for reference)', undefined, undefined, t1 / 1000, 's');
  }
  row('seal to 1,000 PQ recipients', tSeal / 1000, tTyp / 1000, tAge !== undefined ? tAge / 1000 : undefined, 's; target ≤ 0.2 s');
  row('open with the 1,000th identity (tries 1,000 stanzas)', tOpen / 1000, undefined, undefined, 's');
  row('header bytes, 1,000 PQ recipients', parseHeader(ct).length / 1e6, undefined, undefined, 'MB');
}

function runAge(args, inputBytes, block) {
  return new Promise((resolve, reject) => {
    const p = spawn(AGE, args, { stdio: ['pipe', 'ignore', 'inherit'] });
    p.on('error', reject);
    p.on('close', (c) => (c === 0 ? resolve() : reject(new Error(`age exited ${c}`))));
    const data = block ?? new Uint8Array(inputBytes);
    let left = Math.ceil(inputBytes / data.length);
    const write = () => {
      while (left > 0) {
        left--;
        if (!p.stdin.write(data)) return p.stdin.once('drain', write);
      }
      p.stdin.end();
    };
    write();
  });
}

// 3. 100 MB streams
{
  const total = quick ? 32 : 100;
  const block = b.randomBytes(MB);
  const src = () => {
    let left = total;
    return new ReadableStream({ pull: (c) => (left-- === 0 ? c.close() : c.enqueue(block)) });
  };
  const sink = async (s) => {
    const r = s.getReader();
    for (;;) if ((await r.read()).done) return;
  };
  const k = pqKey();
  const tId = await generateHybridIdentity();
  const tR = await identityToRecipient(tId);
  const ct = [];
  {
    const r = sealStream(src(), k.recipient).getReader();
    for (;;) {
      const { done, value } = await r.read();
      if (done) break;
      ct.push(value);
    }
  }
  const ctSrc = () => {
    let i = 0;
    return new ReadableStream({ pull: (c) => (i === ct.length ? c.close() : c.enqueue(ct[i++])) });
  };
  const te = new Encrypter();
  te.addRecipient(tR);
  const td = new Decrypter();
  td.addIdentity(tId);
  const tct = [];
  {
    const r = (await te.encrypt(src())).getReader();
    for (;;) {
      const { done, value } = await r.read();
      if (done) break;
      tct.push(value);
    }
  }
  const tctSrc = () => {
    let i = 0;
    return new ReadableStream({ pull: (c) => (i === tct.length ? c.close() : c.enqueue(tct[i++])) });
  };
  const os = [],
    oo = [],
    ts = [],
    to = [],
    as = [];
  for (let round = 0; round < (quick ? 2 : 3); round++) {
    let t = now();
    await sink(sealStream(src(), k.recipient));
    os.push(now() - t);
    t = now();
    await sink(openStream(ctSrc(), k.identity));
    oo.push(now() - t);
    t = now();
    await sink(await te.encrypt(src()));
    ts.push(now() - t);
    t = now();
    await sink(await td.decrypt(tctSrc()));
    to.push(now() - t);
    if (existsSync(AGE)) {
      t = now();
      await runAge(['-e', '-r', k.recipient], total * MB, block);
      as.push(now() - t);
    }
  }
  const mbps = (ms) => (ms === undefined ? undefined : total / (ms / 1000));
  row(
    `${total} MB stream seal`,
    mbps(median(os)),
    mbps(median(ts)),
    as.length ? mbps(median(as)) : undefined,
    'MB/s; target ≥ 500; age = process fed by a pipe',
  );
  row(`${total} MB stream open`, mbps(median(oo)), mbps(median(to)), undefined, 'MB/s');
}

// 4. overhead bytes
{
  const k = pqKey();
  const one = await seal(new Uint8Array(0), k.recipient);
  const two = await seal(new Uint8Array(0), [k.recipient, pqKey().recipient]);
  const xsk = b.randomBytes(32);
  const { x25519RecipientOf } = await import('../dist/index.js');
  const x1 = await seal(new Uint8Array(0), x25519RecipientOf(xsk));
  const x2 = await seal(new Uint8Array(0), [x25519RecipientOf(xsk), x25519RecipientOf(b.randomBytes(32))]);
  row('bytes per mlkem768x25519 recipient (stanza)', two.length - one.length, undefined, undefined, 'B');
  row('bytes per X25519 recipient (stanza)', x2.length - x1.length, undefined, undefined, 'B');
  row('bytes per 64 KiB chunk (Poly1305 tag)', 16, undefined, undefined, 'B (0.024 %)');
  row('fixed bytes: version line + MAC line + nonce + empty final chunk, no recipients', one.length - (two.length - one.length), undefined, undefined, 'B');
}
rmSync(dir, { recursive: true, force: true });

console.log(`@nen/seal bench (${b.name} backend, Node ${process.version}${quick ? ', --quick' : ''})`);
console.log(['what'.padEnd(58), 'ours'.padStart(12), 'typage'.padStart(12), 'age cmd'.padStart(12), '  unit / note'].join(''));
for (const r of rows) {
  const unit = r.note.split(';')[0].split(' ')[0];
  const f = (v) => (v === undefined ? '—' : unit === 's' ? v.toFixed(3) : unit === 'B' || unit === 'MB/s' || unit === 'µs' ? v.toFixed(0) : v.toFixed(2));
  console.log([r.what.padEnd(58), f(r.ours).padStart(12), f(r.typage).padStart(12), f(r.age).padStart(12), `  ${r.note}`].join(''));
}
