/**
 * OpenSSL's SHA-256 for the gateway (./node-sha256.ts): the same bytes as @noble's, the replay id
 * the same string on every path, and the response key's Extract with a pre-hashed salt equal to
 * the joined one exactly when the salt is longer than HMAC's 64-byte block (RFC 2104 §2).
 */
import { extract } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { randomBytes } from '../backend/random.js';
import { concatBytes } from '../protocol/bytes.js';
import { ohttpReplayId } from './date.js';
import { nodeSha256Hex, nodeSha256Of2 } from './node-sha256.js';

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

describe('node-sha256', () => {
  it('hashes as @noble does (empty, one block, the X-Wing enc), and the replay id is that hex', () => {
    for (const n of [0, 1, 55, 64, 1120]) {
      const data = randomBytes(n);
      expect(nodeSha256Hex(data)).toBe(hex(sha256(data)));
      expect(ohttpReplayId(data)).toBe(hex(sha256(data)));
      const cut = n >> 1;
      expect(hex(nodeSha256Of2(data.subarray(0, cut), data.subarray(cut)) as Uint8Array)).toBe(hex(sha256(data)));
    }
  });
  it('a salt longer than 64 bytes extracts as its SHA-256 does; a 64-byte one does not (why responseKeys checks the length)', () => {
    const ikm = randomBytes(32);
    for (const [encLength, same] of [
      [1120, true],
      [33, true],
      [32, false],
    ] as const) {
      const enc = randomBytes(encLength);
      const nonce = randomBytes(32);
      const joined = extract(sha256, ikm, concatBytes(enc, nonce));
      const hashed = extract(sha256, ikm, nodeSha256Of2(enc, nonce) as Uint8Array);
      expect(hex(hashed) === hex(joined)).toBe(same);
    }
  });
});
