/**
 * ./key-schedule.ts: the OHTTP KeySchedule with its constant parts cached equals RFC 9180 §5.1's
 * keyScheduleBase (../backend/hpke.ts) for every OHTTP suite id, fresh and repeated infos; the
 * cache stays bounded however many infos arrive. (RFC 9458 Appendix A and the hpke-pq vectors in
 * ./rfc9458-appendix-a.test.ts and ./kem-wasm.test.ts run through it too.)
 */
import { describe, expect, it } from 'vitest';
import { hpkeSuiteId, keyScheduleBase } from '../backend/hpke.js';
import { randomBytes } from '../backend/random.js';
import { OHTTP_AEAD, OHTTP_AEAD_INFO, OHTTP_KEM, hkdf } from './hpke.js';
import { keyScheduleCacheSize, ohttpKeySchedule } from './key-schedule.js';

const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('OHTTP KeySchedule with cached constant parts', () => {
  it('equals keyScheduleBase for every KEM x AEAD, fresh and repeated infos', () => {
    for (const kem of Object.values(OHTTP_KEM)) {
      for (const aead of Object.values(OHTTP_AEAD)) {
        const { nk, nn } = OHTTP_AEAD_INFO[aead] as { nk: number; nn: number };
        const sid = hpkeSuiteId(kem, 1, aead);
        const info = randomBytes(29);
        for (let i = 0; i < 3; i++) {
          const ss = randomBytes(32);
          const want = keyScheduleBase(hkdf, sid, ss, info, nk, nn);
          const got = ohttpKeySchedule(hkdf, sid, ss, info, nk, nn);
          expect([toHex(got.key), toHex(got.baseNonce), toHex(got.exporterSecret)]).toEqual([
            toHex(want.key),
            toHex(want.baseNonce),
            toHex(want.exporterSecret),
          ]);
        }
      }
    }
  });

  it('the cache is bounded', () => {
    const sid = hpkeSuiteId(OHTTP_KEM.XWING, 1, OHTTP_AEAD.CHACHA20_POLY1305);
    for (let i = 0; i < 200; i++) ohttpKeySchedule(hkdf, sid, randomBytes(32), randomBytes(20), 32, 12);
    expect(keyScheduleCacheSize()).toBeLessThanOrEqual(32);
  });
});
