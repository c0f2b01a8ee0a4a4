/**
 * Every C2SP CCTV age vector (vectors/age/testdata, 143 files) through the Opener: the expected
 * outcome (success / no match / HMAC / header / payload / armor failure) and, where the vector
 * gives it, the SHA-256 of all plaintext released before the outcome (the partial-payload rule:
 * verified STREAM chunks are released even when a later chunk fails).
 *
 * No vector is skipped: scrypt (passphrase) vectors run with ScryptIdentity.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { loadBackend } from '@nen/core';
import { describe, expect, it } from 'vitest';
import { NenSealError, Opener, ScryptIdentity, parseIdentity, type Identity } from '../src/index.js';

const DIR = join(import.meta.dirname, '../../../vectors/age/testdata');
const EXPECT_CODE: Record<string, string | null> = {
  success: null,
  'no match': 'NEN_SEAL_NO_MATCH',
  'HMAC failure': 'NEN_SEAL_HMAC',
  'header failure': 'NEN_SEAL_HEADER',
  'payload failure': 'NEN_SEAL_PAYLOAD',
  'armor failure': 'NEN_SEAL_ARMOR',
};

interface Vector {
  name: string;
  meta: Map<string, string[]>;
  body: Uint8Array;
}

function load(name: string): Vector {
  const raw = readFileSync(join(DIR, name));
  const split = raw.indexOf('\n\n');
  const meta = new Map<string, string[]>();
  for (const line of raw.subarray(0, split).toString('utf8').split('\n')) {
    const i = line.indexOf(': ');
    const k = line.slice(0, i);
    meta.set(k, [...(meta.get(k) ?? []), line.slice(i + 2)]);
  }
  let body: Uint8Array = raw.subarray(split + 2);
  if (meta.get('compressed')?.[0] === 'zlib') body = inflateSync(body);
  return { name, meta, body };
}

const names = readdirSync(DIR).sort();

describe('C2SP CCTV age vectors', () => {
  it('the vendored set is complete (143 files)', () => {
    expect(names.length).toBe(143);
  });

  it.each(names)('%s', async (name) => {
    const v = load(name);
    const b = await loadBackend('auto');
    const expected = v.meta.get('expect')?.[0] as string;
    expect(Object.keys(EXPECT_CODE)).toContain(expected);
    const ids: Identity[] = [
      ...(v.meta.get('identity') ?? []).map((s) => parseIdentity(s)),
      ...(v.meta.get('passphrase') ?? []).map((p) => new ScryptIdentity(p)),
    ];
    const armored = v.meta.get('armored')?.[0] === 'yes';
    const o = new Opener(b, ids, { armor: armored });
    const out: Uint8Array[] = [];
    let code: string | null = null;
    try {
      // Feed in odd-sized pieces so the push state machines are exercised across boundaries.
      for (let i = 0; i < v.body.length; i += 7919) o.push(v.body.subarray(i, i + 7919), out);
      o.finish(out);
    } catch (e) {
      if (!(e instanceof NenSealError)) throw e;
      code = e.code;
    } finally {
      o.dispose();
    }
    expect(code).toBe(EXPECT_CODE[expected]);
    const payload = v.meta.get('payload')?.[0];
    if (payload) {
      const h = createHash('sha256');
      for (const c of out) h.update(c);
      expect(h.digest('hex')).toBe(payload);
    } else if (code !== null) {
      expect(out.reduce((n, c) => n + c.length, 0)).toBe(0);
    }
  });
});
