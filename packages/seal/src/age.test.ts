/** seal/open of bytes and strings: recipients, armor, key conversion, failure codes. */
import { randomBytes } from 'node:crypto';
import { KEM_ID, fromBase64Url, loadBackend, toBase64Url } from '@nen/core';
import { describe, expect, it } from 'vitest';
import {
  NenSealError,
  ScryptIdentity,
  ScryptRecipient,
  X25519Identity,
  ageIdentityToNenKey,
  decodeBech32,
  nenKeyToAgeIdentity,
  nenPinToAgeRecipient,
  open,
  openText,
  parseHeader,
  parseIdentities,
  parseIdentityFile,
  parseRecipient,
  seal,
  sealArmored,
  x25519RecipientOf,
  xwingPublicKey,
} from './index.js';
import { pqKeyPair } from '../test/helpers.js';

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof NenSealError ? e.code : String(e)),
  );

describe('seal / open', () => {
  it('round-trips strings and bytes of chunk-boundary sizes to one PQ recipient', async () => {
    const k = await pqKeyPair();
    expect(await openText(await seal('héllo wörld', k.recipient), k.identity)).toBe('héllo wörld');
    for (const n of [0, 1, 65535, 65536, 65537, 3 * 65536, 3 * 65536 + 5]) {
      const pt = new Uint8Array(randomBytes(n));
      const ct = await seal(pt, k.recipient);
      const chunks = Math.max(1, Math.ceil(n / 65536));
      expect(ct.length).toBe(parseHeader(ct).length + 16 + n + 16 * chunks);
      expect(Buffer.from(await open(ct, k.identity)).equals(Buffer.from(pt))).toBe(true);
    }
  });

  it('a group: one file key wrapped per recipient, each member opens, an outsider gets NO_MATCH', async () => {
    const ks = await Promise.all([pqKeyPair(), pqKeyPair(), pqKeyPair()]);
    const out = await pqKeyPair();
    const ct = await seal(
      'group secret',
      ks.map((k) => k.recipient),
    );
    expect(parseHeader(ct).stanzas.map((s) => s.type)).toEqual(['mlkem768x25519', 'mlkem768x25519', 'mlkem768x25519']);
    for (const k of ks) expect(await openText(ct, k.identity)).toBe('group secret');
    expect(await codeOf(open(ct, out.identity))).toBe('NEN_SEAL_NO_MATCH');
  });

  it('armor: sealArmored is PEM, open auto-detects it, binary-only mode refuses it', async () => {
    const k = await pqKeyPair();
    const text = await sealArmored(new Uint8Array(randomBytes(1000)), k.recipient);
    expect(text.startsWith('-----BEGIN AGE ENCRYPTED FILE-----\n')).toBe(true);
    expect(text.endsWith('-----END AGE ENCRYPTED FILE-----\n')).toBe(true);
    expect((await open(text, k.identity)).length).toBe(1000);
    expect(await codeOf(open(text, k.identity, { armor: false }))).toBe('NEN_SEAL_HEADER');
  });

  it('X25519 recipients work, but are not mixed with PQ ones unless allowed', async () => {
    const sk = new Uint8Array(randomBytes(32));
    const r = x25519RecipientOf(sk);
    const id = new X25519Identity(sk);
    expect(await openText(await seal('x', r), id)).toBe('x');
    const k = await pqKeyPair();
    expect(await codeOf(seal('x', [k.recipient, r]))).toBe('NEN_SEAL_RECIPIENT');
    const mixed = await seal('x', [k.recipient, r], { allowMixedRecipients: true });
    expect(await openText(mixed, id)).toBe('x');
    expect(await openText(mixed, k.identity)).toBe('x');
  });

  it('scrypt (passphrase) round-trips and must be alone', async () => {
    const ct = await seal('pw', new ScryptRecipient('correct horse', 10));
    expect(await openText(ct, new ScryptIdentity('correct horse'))).toBe('pw');
    expect(await codeOf(open(ct, new ScryptIdentity('wrong')))).toBe('NEN_SEAL_NO_MATCH');
    const k = await pqKeyPair();
    expect(await codeOf(seal('x', [new ScryptRecipient('a', 10), k.recipient]))).toBe('NEN_SEAL_RECIPIENT');
  });

  it('a flipped header byte fails the MAC; a flipped payload byte fails the payload', async () => {
    const k = await pqKeyPair();
    const ct = await seal('integrity', k.recipient);
    const h = parseHeader(ct);
    const grease = Buffer.concat([Buffer.from(ct.subarray(0, 22)), Buffer.from('-> grease x\n\n'), Buffer.from(ct.subarray(22))]);
    expect(parseHeader(grease).stanzas.length).toBe(2);
    expect(await codeOf(open(grease, k.identity))).toBe('NEN_SEAL_HMAC');
    const p = ct.slice();
    p[h.length + 20] = (p[h.length + 20] as number) ^ 1;
    expect(await codeOf(open(p, k.identity))).toBe('NEN_SEAL_PAYLOAD');
    expect(await codeOf(open(ct.subarray(0, ct.length - 1), k.identity))).toBe('NEN_SEAL_PAYLOAD');
    expect(await codeOf(open(new Uint8Array(0), k.identity))).toBe('NEN_SEAL_HEADER');
    expect(await codeOf(open('garbage', k.identity))).toBe('NEN_SEAL_HEADER');
  });

  it('bad key strings fail with stable codes', async () => {
    expect(() => parseRecipient('age1pq1notakey')).toThrow(NenSealError);
    expect(await codeOf(seal('x', 'nonsense'))).toBe('NEN_SEAL_RECIPIENT');
    expect(await codeOf(open(new Uint8Array(1), 'AGE-SECRET-KEY-PQ-1XXXX'))).toBe('NEN_SEAL_KEY');
  });
});

describe('backends', () => {
  it('wasm, noble and node backends interoperate (seal on one, open on another)', async () => {
    const k = await pqKeyPair();
    const kinds = ['wasm', 'noble', 'node'] as const;
    const pt = new Uint8Array(randomBytes(70_000));
    for (const a of kinds) {
      const ct = await seal(pt, k.recipient, { backend: await loadBackend(a) });
      for (const b of kinds) expect(Buffer.compare(Buffer.from(await open(ct, k.identity, { backend: await loadBackend(b) })), Buffer.from(pt))).toBe(0);
    }
  });
});

describe('key conversion with nen keygen output', () => {
  it('a Nen X-Wing server key is an age identity; its pin is the age1pq recipient', async () => {
    const b = await loadBackend('auto');
    const kp = b.generateKeyPair(KEM_ID.XWING);
    const entry = `k1:${toBase64Url(kp.privateKey)}`;
    const pin = `k1:${toBase64Url(kp.publicKey)}`;
    const identity = nenKeyToAgeIdentity(`NEN_SERVER_KEYS=${entry}`);
    const recipient = nenPinToAgeRecipient(pin);
    expect(identity.startsWith('AGE-SECRET-KEY-PQ-1')).toBe(true);
    expect(recipient.startsWith('age1pq1')).toBe(true);
    expect(ageIdentityToNenKey(identity, 'k1')).toBe(entry);
    // The pin, the age recipient and the key expanded from the seed agree byte for byte.
    expect(Buffer.from(decodeBech32(recipient)!.bytes).equals(Buffer.from(kp.publicKey))).toBe(true);
    expect(Buffer.from(xwingPublicKey(await loadBackend('noble'), fromBase64Url(entry.slice(3))!)).equals(Buffer.from(kp.publicKey))).toBe(true);
    // Seal to the pin or the recipient, open with the Nen entry or the age identity.
    expect(await openText(await seal('a', pin), entry)).toBe('a');
    expect(await openText(await seal('b', recipient), identity)).toBe('b');
    // Identity files: the comma list and the JSON form of NEN_SERVER_KEYS, next to other env lines.
    const other = b.generateKeyPair(KEM_ID.XWING);
    const list = `NEN_SERVER_KEYS=k0:${toBase64Url(other.privateKey)},${entry}\nNEN_STORE_KEY=x\n`;
    const json = `NEN_SERVER_KEYS={"k0":"${toBase64Url(other.privateKey)}","k1":"${toBase64Url(kp.privateKey)}"}\n`;
    for (const text of [list, json]) expect(await openText(await seal('c', pin), parseIdentityFile(text))).toBe('c');
    // A whole NEN_SERVER_KEYS value as an identity string (a receiver during a rotation): every form
    // of PROTOCOL.md §2 gives one identity per key, and a file sealed to either key opens.
    const o = toBase64Url(other.privateKey);
    const otherPin = `k0:${toBase64Url(other.publicKey)}`;
    const values = [`k0:${o},${entry}`, ` k0:${o} , ${entry} ,`, `{"k0":"${o}","k1":"${entry.slice(3)}"}`, `NEN_SERVER_KEYS=k0:${o},${entry}`];
    for (const v of values) {
      expect(parseIdentities(v).length).toBe(2);
      for (const p of [pin, otherPin]) expect(await openText(await seal('d', p), v)).toBe('d');
    }
    for (const bad of [',', '{"k0":1}', '[]', `k0:${o},nope`, '{"k0":'])
      expect(() => parseIdentities(bad)).toThrow(expect.objectContaining({ code: 'NEN_SEAL_KEY' }));
  });

  it('refuses ML-KEM-768 Nen keys (no age encoding)', async () => {
    const b = await loadBackend('auto');
    const kp = b.generateKeyPair(KEM_ID.MLKEM768);
    expect(() => nenKeyToAgeIdentity(`k:${toBase64Url(kp.privateKey)}`)).toThrow(/X-Wing/);
    expect(() => nenPinToAgeRecipient(`k:${toBase64Url(kp.publicKey)}`)).toThrow(/X-Wing/);
  });
});
