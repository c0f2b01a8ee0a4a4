/** The OHTTP Date window (RFC 9458 §6.5): inside accepted, outside / missing / duplicated / unparsable refused with NEN_OHTTP_DATE (400); the replay id. */
import { describe, expect, it } from 'vitest';
import { thrown } from '../../test/thrown.js';
import { checkOhttpDate, ohttpReplayId, replayIdTtlMs } from './date.js';

const now = Date.parse('2026-11-26T12:00:00Z');
const at = (ms: number): [string, string][] => [['date', new Date(ms).toUTCString()]];

describe('OHTTP Date window', () => {
  it('accepts a Date within the window, refuses outside, missing, duplicated and invalid ones', () => {
    expect(checkOhttpDate(at(now - 59_000), now, 60_000)).toBe(now - 59_000);
    expect(checkOhttpDate(at(now + 59_000), now, 60_000)).toBe(now + 59_000);
    for (const h of [at(now - 61_000), at(now + 61_000), [], [['date', 'yesterday']], [...at(now), ...at(now)]] as [string, string][][]) {
      expect(thrown(() => checkOhttpDate(h, now, 60_000))).toMatchObject({ status: 400, code: 'NEN_OHTTP_DATE' });
    }
  });
  it('the replay id is the hex SHA-256 of enc (FIPS 180-2 "abc" known answer)', () => {
    expect(ohttpReplayId(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('replay ids outlive every request the window can still accept', () => {
    expect(replayIdTtlMs(60_000)).toBeGreaterThan(120_000);
  });
});
