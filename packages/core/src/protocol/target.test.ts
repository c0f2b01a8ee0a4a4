/**
 * The request target bound in the AAD is the form a Next.js route handler reads (Next rebuilds
 * request.url through URLSearchParams): equivalent spellings bind identically, different queries
 * never do.
 */
import { describe, expect, it } from 'vitest';
import { canonicalTarget, requestAad } from './message.js';

const meta = { sessionId: new Uint8Array(16).fill(7), epoch: 0, seq: 1n, timestamp: 1_700_000_000_000, flags: 0 };
const aad = (t: string) => Buffer.from(requestAad(meta, 'GET', t, '')).toString('hex');

describe('canonicalTarget', () => {
  it.each([
    ['/api/notes', '/api/notes'],
    ['/api/notes?', '/api/notes'],
    ['/api/notes?q=a%20b', '/api/notes?q=a+b'],
    ['/api/notes?q=a+b', '/api/notes?q=a+b'],
    ['/api/notes?q=~x!', '/api/notes?q=%7Ex%21'],
    ['/api/notes?flag', '/api/notes?flag='],
    ['/api/notes?b=2&a=1&a=3', '/api/notes?b=2&a=1&a=3'],
    ['/api/n%C3%A9?q=%C3%A9', '/api/n%C3%A9?q=%C3%A9'],
  ])('%s → %s', (raw, canonical) => {
    expect(canonicalTarget(raw)).toBe(canonical);
    expect(canonicalTarget(canonical)).toBe(canonical); // idempotent
  });

  it('binds equivalent spellings identically and different queries differently', () => {
    expect(aad('/api/notes?q=a%20b')).toBe(aad('/api/notes?q=a+b'));
    expect(aad('/api/notes?flag')).toBe(aad('/api/notes?flag='));
    expect(aad('/api/notes?q=a+b')).not.toBe(aad('/api/notes?q=a-b'));
    expect(aad('/api/notes?a=1&b=2')).not.toBe(aad('/api/notes?b=2&a=1')); // order is kept, not sorted
    expect(aad('/api/notes?q=1')).not.toBe(aad('/api/notes'));
    expect(aad('/api/notes')).not.toBe(aad('/api/note'));
  });
});
