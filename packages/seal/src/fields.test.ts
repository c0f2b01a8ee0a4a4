/** Field sealing: round trip, one encapsulation per record, and binding to path and record id. */
import { describe, expect, it } from 'vitest';
import { NenSealError, openFields, parseHeader, sealFields } from './index.js';
import { fromBase64Url } from '@nen/core';
import { pqKeyPair } from '../test/helpers.js';

const record = { id: 'u1', name: 'Ada', ssn: '123-45-6789', card: { number: '4111', exp: '12/30' }, tags: ['a', { secret: 42 }], 'we/ird~': true };
const PATHS = ['/ssn', '/card/number', '/tags/1/secret', '/we~1ird~0'];

const code = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof NenSealError ? e.code : String(e)),
  );

describe('sealFields / openFields', () => {
  it('round-trips selected fields; others stay in clear; any JSON value', async () => {
    const k = await pqKeyPair();
    const sealed = await sealFields(record, PATHS, k.recipient, { recordId: 'users/u1' });
    expect(sealed.name).toBe('Ada');
    expect(String(sealed.ssn).startsWith('nen:v1:')).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('123-45-6789');
    expect(JSON.stringify(sealed)).not.toContain('4111');
    expect(await openFields(sealed, k.identity, { recordId: 'users/u1' })).toEqual(record);
  });

  it('one KEM encapsulation per record and recipient, whatever the number of fields', async () => {
    const [a, b] = await Promise.all([pqKeyPair(), pqKeyPair()]);
    const sealed = await sealFields(record, PATHS, [a.recipient, b.recipient], { recordId: 'r' });
    const header = parseHeader(fromBase64Url(sealed._nen as string)!);
    expect(header.stanzas.length).toBe(2);
    expect(await openFields(sealed, b.identity, { recordId: 'r' })).toEqual(record);
  });

  it('a field moved to another path fails', async () => {
    const k = await pqKeyPair();
    const sealed = await sealFields({ a: 'x', b: 'y' }, ['/a', '/b'], k.recipient, { recordId: 'r1' });
    const swapped = { ...sealed, a: sealed.b, b: sealed.a };
    expect(await code(openFields(swapped, k.identity, { recordId: 'r1' }))).toBe('NEN_SEAL_FIELD');
    const moved = { ...sealed, c: sealed.a };
    expect(await code(openFields(moved, k.identity, { recordId: 'r1' }))).toBe('NEN_SEAL_FIELD');
  });

  it('a field copied into another record (same key, other id or other envelope) fails', async () => {
    const k = await pqKeyPair();
    const r1 = await sealFields({ ssn: '1' }, ['/ssn'], k.recipient, { recordId: 'r1' });
    const r2 = await sealFields({ ssn: '2' }, ['/ssn'], k.recipient, { recordId: 'r2' });
    expect(await code(openFields(r1, k.identity, { recordId: 'r2' }))).toBe('NEN_SEAL_FIELD');
    expect(await code(openFields({ ...r2, ssn: r1.ssn }, k.identity, { recordId: 'r2' }))).toBe('NEN_SEAL_FIELD');
    // Same record id, another sealing of it (other envelope): the old field does not open.
    const r1b = await sealFields({ ssn: '3' }, ['/ssn'], k.recipient, { recordId: 'r1' });
    expect(await code(openFields({ ...r1b, ssn: r1.ssn }, k.identity, { recordId: 'r1' }))).toBe('NEN_SEAL_FIELD');
  });

  it('tampered value, wrong key, missing envelope, bad paths fail with codes', async () => {
    const k = await pqKeyPair();
    const o = await pqKeyPair();
    const s = await sealFields({ a: 'x' }, ['/a'], k.recipient, { recordId: 'r' });
    const t = String(s.a);
    const flipped = t.slice(0, -2) + (t.at(-2) === 'A' ? 'B' : 'A') + t.at(-1);
    expect(await code(openFields({ ...s, a: flipped }, k.identity, { recordId: 'r' }))).toBe('NEN_SEAL_FIELD');
    expect(await code(openFields(s, o.identity, { recordId: 'r' }))).toBe('NEN_SEAL_NO_MATCH');
    expect(await code(openFields({ a: s.a }, k.identity, { recordId: 'r' }))).toBe('NEN_SEAL_FIELD');
    expect(await code(sealFields({ a: 1 }, ['/b'], k.recipient, { recordId: 'r' }))).toBe('NEN_SEAL_FIELD');
    expect(await code(sealFields({ a: 1 }, ['a'], k.recipient, { recordId: 'r' }))).toBe('NEN_SEAL_FIELD');
  });
});
