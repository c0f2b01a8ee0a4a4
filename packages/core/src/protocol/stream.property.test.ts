/**
 * Property-based tests (fast-check) for Nen stream framing (PROTOCOL.md "Streams";
 * THREAT_MODEL.md property 9): records = u32 length || ChaCha20-Poly1305 (RFC 8439 §2.8) sealed
 * chunk, nonce from (seq, record index), AAD = message AAD || u32 index || u8 final.
 *
 * Properties:
 *  - any chunking of the framed byte stream on the wire decodes to the same plaintext (the
 *    transport may split or coalesce records anywhere);
 *  - every proper prefix (truncation), every reordering of two records, every duplicated record,
 *    every dropped record and every flipped byte is rejected with a NenError code — never
 *    accepted, never a crash;
 *  - all of the above hold for pushCoalesced too (one chunk per piece of wire: the client's
 *    network reads), and a bad record anywhere in a batch fails the batch with nothing returned;
 *  - arbitrary bytes fed to the opener raise only the opener's own typed errors, and the opener
 *    never buffers more than one record;
 *  - the sealer's and opener's in-place nonce / AAD (rewritten per record, no allocation) are
 *    byte for byte computeNonce(iv, seq, i) and recordAad(aad, i, final) at every index byte,
 *    and the framed output is exactly u32(len) || seal(...) per record.
 *
 * Pitfall: records are sealed with the node:crypto backend here (fast); the codec is the same for
 * every backend, which cross.test.ts checks byte for byte.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NenError } from '../errors.js';
import { loadBackend } from '../backend/index.js';
import type { Aead, Backend } from '../backend/types.js';
import { concatBytes, u32 } from './bytes.js';
import { MAX_RECORD_PLAINTEXT } from './constants.js';
import { computeNonce } from './keys.js';
import { RecordNonceAad, RecordOpener, RecordSealer, recordAad } from './message.js';

let backend: Backend;
let aead: Aead;
const iv = new Uint8Array(12).fill(3);
const seq = 42n;
const aad = new TextEncoder().encode('nen/1 response test aad');

beforeAll(async () => {
  backend = await loadBackend('node');
  aead = backend.createAead(new Uint8Array(32).fill(1));
});
afterAll(() => aead.dispose());

type Kind = 'malformed' | 'auth' | 'truncated' | 'trailing';
const CODES: Record<Kind, string> = { malformed: 'NEN_MALFORMED', auth: 'NEN_AUTH_FAILED', truncated: 'NEN_STREAM_TRUNCATED', trailing: 'NEN_MALFORMED' };

function opener(): RecordOpener {
  return new RecordOpener(aead, iv, seq, aad, (kind, detail) => new NenError(CODES[kind], `stream ${kind}: ${detail}`));
}

/** Seals chunks into framed records (one record per chunk when chunks are small); the last one final. */
function sealRecords(chunks: readonly Uint8Array[]): Uint8Array[] {
  const s = new RecordSealer(aead, iv, seq, aad);
  const out = chunks.map((c) => s.seal(c, false));
  out.push(s.seal(new Uint8Array(0), true));
  return out;
}

/**
 * Feeds `wire` split at the given cut points; returns the plaintext or the error code. `coalesced`:
 * through pushCoalesced (one chunk per piece of wire, as the client hands a network read over).
 */
function decode(wire: Uint8Array, cuts: readonly number[] = [], coalesced = false): { ok: true; plain: Uint8Array } | { ok: false; code: string } {
  const o = opener();
  const parts: Uint8Array[] = [];
  const points = [...new Set(cuts.map((c) => c % (wire.length + 1)))].sort((a, b) => a - b);
  let prev = 0;
  try {
    for (const p of [...points, wire.length]) {
      const piece = wire.subarray(prev, p);
      if (coalesced) parts.push(o.pushCoalesced(piece));
      else parts.push(...o.push(piece));
      prev = p;
    }
    o.end();
    return { ok: true, plain: concatBytes(...parts) };
  } catch (e) {
    if (!(e instanceof NenError)) throw new Error(`opener threw a non-Nen error: ${String(e)}`, { cause: e });
    return { ok: false, code: e.code };
  }
}

const arbChunks = fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 0, maxLength: 8 });

describe.each([
  ['push', false],
  ['pushCoalesced', true],
])('stream framing (%s)', (_name, coalesced) => {
  it('any chunking of the wire bytes decodes to the same plaintext', () => {
    fc.assert(
      fc.property(arbChunks, fc.array(fc.nat(), { maxLength: 12 }), (chunks, cuts) => {
        const wire = concatBytes(...sealRecords(chunks));
        const r = decode(wire, cuts, coalesced);
        expect(r).toEqual({ ok: true, plain: concatBytes(...chunks) });
      }),
      { numRuns: 300 },
    );
  });

  it('splits chunks above MAX_RECORD_PLAINTEXT into several records and still round-trips', () => {
    const big = backend.randomBytes(MAX_RECORD_PLAINTEXT * 2 + 17);
    const s = new RecordSealer(aead, iv, seq, aad);
    const wire = concatBytes(s.seal(big, false), s.seal(new Uint8Array(5).fill(9), true));
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 6 }), (cuts) => {
        const r = decode(wire, cuts, coalesced);
        expect(r.ok && Buffer.from(r.plain).equals(Buffer.from(concatBytes(big, new Uint8Array(5).fill(9))))).toBe(true);
      }),
      { numRuns: 20 },
    );
  });

  it('rejects every truncation (proper prefix), whatever the chunking', () => {
    fc.assert(
      fc.property(arbChunks, fc.nat(), fc.array(fc.nat(), { maxLength: 6 }), (chunks, cut, cuts) => {
        const wire = concatBytes(...sealRecords(chunks));
        const r = decode(wire.subarray(0, cut % wire.length), cuts, coalesced);
        expect(r.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects reordered, duplicated and dropped records', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 64 }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('swap', 'dup', 'drop'),
        (chunks, a, b, op) => {
          const recs = sealRecords(chunks); // length >= 2 (chunks + final)
          const i = a % recs.length;
          let j = b % recs.length;
          const m = recs.slice();
          if (op === 'swap') {
            if (i === j) j = (i + 1) % recs.length;
            [m[i], m[j]] = [m[j]!, m[i]!];
          } else if (op === 'dup') {
            m.splice(j, 0, recs[i]!);
          } else {
            m.splice(i, 1);
          }
          const r = decode(concatBytes(...m), [], coalesced);
          expect(r.ok).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('rejects any flipped byte and any trailing data', () => {
    fc.assert(
      fc.property(arbChunks, fc.nat(), fc.integer({ min: 1, max: 255 }), fc.uint8Array({ minLength: 1, maxLength: 40 }), (chunks, pos, x, extra) => {
        const wire = concatBytes(...sealRecords(chunks));
        const m = wire.slice();
        const i = pos % m.length;
        m[i] = m[i]! ^ x;
        expect(decode(m, [], coalesced).ok).toBe(false);
        expect(decode(concatBytes(wire, extra), [], coalesced).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary bytes raise only typed errors and never make the opener buffer more than one record', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
        expect(decode(bytes, cuts, coalesced).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
    // A huge declared length is refused at once instead of being buffered.
    const o = opener();
    const hdr = new Uint8Array([0x7f, 0xff, 0xff, 0xff]);
    expect(() => (coalesced ? o.pushCoalesced(hdr) : o.push(hdr))).toThrow(NenError);
  });
});

describe('pushCoalesced (one chunk per network read)', () => {
  it('returns the plaintexts of all the records a read completed as one chunk, in order', () => {
    const chunks = [0, 1, 2, 3, 4].map((i) => new TextEncoder().encode(`data: {"t":${i}}\n\n`));
    const recs = sealRecords(chunks);
    const o = opener();
    // Read 1: records 0-2 and half of record 3; read 2: the rest and the final record.
    const wire = concatBytes(...recs);
    const cut = recs[0]!.length + recs[1]!.length + recs[2]!.length + 10;
    const a = o.pushCoalesced(wire.subarray(0, cut));
    expect(same(a, concatBytes(chunks[0]!, chunks[1]!, chunks[2]!))).toBe(true);
    const b = o.pushCoalesced(wire.subarray(cut));
    expect(same(b, concatBytes(chunks[3]!, chunks[4]!))).toBe(true);
    expect(o.finished).toBe(true);
    o.end();
    // A read that completes no record (or only empty ones) yields an empty chunk.
    const o2 = opener();
    expect(o2.pushCoalesced(wire.subarray(0, 3)).length).toBe(0);
  });

  it('a tampered, reordered or duplicated record anywhere in a batch fails the whole batch: nothing of it is returned', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 64 }), { minLength: 2, maxLength: 8 }),
        fc.nat(),
        fc.constantFrom('flip', 'swap', 'dup'),
        (chunks, k, op) => {
          const recs = sealRecords(chunks);
          const i = 1 + (k % (recs.length - 1)); // never the first: valid records precede the bad one in the batch
          const m = recs.slice();
          if (op === 'flip') {
            const r = m[i]!.slice();
            r[r.length - 1] = r[r.length - 1]! ^ 1;
            m[i] = r;
          } else if (op === 'swap') {
            [m[i - 1], m[i]] = [m[i]!, m[i - 1]!];
          } else {
            m.splice(i, 0, recs[i - 1]!);
          }
          const o = opener();
          let got: Uint8Array | undefined;
          let err: unknown;
          try {
            got = o.pushCoalesced(concatBytes(...m));
          } catch (e) {
            err = e;
          }
          expect(got).toBeUndefined();
          expect(err).toBeInstanceOf(NenError);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a batch that ends without the final record is reported truncated at end()', () => {
    const chunks = [1, 2, 3].map((n) => new Uint8Array(n).fill(n));
    const recs = sealRecords(chunks);
    const o = opener();
    expect(same(o.pushCoalesced(concatBytes(...recs.slice(0, -1))), concatBytes(...chunks))).toBe(true);
    expect(() => o.end()).toThrow(expect.objectContaining({ code: 'NEN_STREAM_TRUNCATED' }));
  });
});

/** The PROTOCOL.md §6 construction, one allocation per field (the reference the fast path must equal). */
function referenceRecords(chunks: readonly Uint8Array[]): Uint8Array {
  const out: Uint8Array[] = [];
  let i = 0;
  const all = [...chunks, new Uint8Array(0)];
  all.forEach((c, k) => {
    for (let o = 0; o === 0 || o < c.length; o += MAX_RECORD_PLAINTEXT) {
      const end = Math.min(c.length, o + MAX_RECORD_PLAINTEXT);
      const final = k === all.length - 1 && end === c.length;
      const sealed = aead.seal(computeNonce(iv, seq, i), recordAad(aad, i, final), c.subarray(o, end));
      out.push(u32(sealed.length), sealed);
      i++;
    }
  });
  return concatBytes(...out);
}

/**
 * An Aead without crypto whose "tag" is nonce || the AAD's last 4 bytes (index bytes 1-3, final):
 * open throws unless it gets the nonce / AAD the sealer used. Records copies of what it was given.
 */
function spyAead(seen: Map<number, { nonce: Uint8Array; aad: Uint8Array }>): Aead {
  let calls = 0;
  const tag = (nonce: Uint8Array, a: Uint8Array) => concatBytes(nonce, a.subarray(a.length - 4));
  const note = (nonce: Uint8Array, a: Uint8Array) => {
    seen.set(calls++, { nonce: nonce.slice(), aad: a.slice() });
  };
  return {
    seal(nonce, a, plaintext) {
      note(nonce, a);
      return concatBytes(plaintext, tag(nonce, a));
    },
    open(nonce, a, sealed) {
      note(nonce, a);
      const n = sealed.length - 16;
      if (!Buffer.from(sealed.subarray(n)).equals(Buffer.from(tag(nonce, a)))) throw new NenError('NEN_CRYPTO_AEAD', 'spy: wrong nonce or AAD');
      return sealed.slice(0, n);
    },
    dispose() {},
    [Symbol.dispose]() {},
  };
}

const same = (a: Uint8Array | undefined, b: Uint8Array) => a !== undefined && Buffer.from(a).equals(Buffer.from(b));

describe('record nonce and AAD (written in place)', () => {
  it('the framed output equals the reference construction byte for byte', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 10 }), (chunks) => {
        expect(same(concatBytes(...sealRecords(chunks)), referenceRecords(chunks))).toBe(true);
      }),
      { numRuns: 200 },
    );
    const big = [backend.randomBytes(MAX_RECORD_PLAINTEXT + 3), new Uint8Array(0), backend.randomBytes(MAX_RECORD_PLAINTEXT)];
    expect(same(concatBytes(...sealRecords(big)), referenceRecords(big))).toBe(true);
  });

  it('sealer and opener use computeNonce / recordAad at every record index (70,001 records)', () => {
    const n = 70_000; // index bytes 3, 2 and 1 all change; byte 0 is checked through RecordNonceAad below
    const sealSeen = new Map<number, { nonce: Uint8Array; aad: Uint8Array }>();
    const s = new RecordSealer(spyAead(sealSeen), iv, seq, aad);
    const chunk = new Uint8Array([1, 2, 3]);
    const wire: Uint8Array[] = [];
    for (let i = 0; i < n; i++) wire.push(s.seal(chunk, false));
    wire.push(s.seal(chunk, true));
    const openSeen = new Map<number, { nonce: Uint8Array; aad: Uint8Array }>();
    const o = new RecordOpener(spyAead(openSeen), iv, seq, aad, (k, d) => new NenError(CODES[k], d));
    let plain = 0;
    for (const w of wire) for (const p of o.push(w)) plain += p.length;
    o.end();
    expect(plain).toBe(3 * (n + 1));
    for (const i of [0, 1, 255, 256, 65_535, 65_536, n - 1, n]) {
      expect(same(sealSeen.get(i)?.nonce, computeNonce(iv, seq, i))).toBe(true);
      expect(same(sealSeen.get(i)?.aad, recordAad(aad, i, i === n))).toBe(true);
      // The opener tries non-final first: record i < n is its call i; the final one is calls n and n + 1.
      expect(same(openSeen.get(i)?.nonce, computeNonce(iv, seq, i))).toBe(true);
      expect(same(openSeen.get(i)?.aad, recordAad(aad, i, false))).toBe(true);
    }
    expect(same(openSeen.get(n + 1)?.aad, recordAad(aad, n, true))).toBe(true);
  });

  it('an empty record is tried as final first (one AEAD call for the usual empty final record); an empty non-final one still opens', () => {
    const sealSeen = new Map<number, { nonce: Uint8Array; aad: Uint8Array }>();
    const s = new RecordSealer(spyAead(sealSeen), iv, seq, aad);
    const empty = new Uint8Array(0);
    const wire = [s.seal(new Uint8Array([1]), false), s.seal(empty, false), s.seal(new Uint8Array([2]), false), s.seal(empty, true)];
    const openSeen = new Map<number, { nonce: Uint8Array; aad: Uint8Array }>();
    const o = new RecordOpener(spyAead(openSeen), iv, seq, aad, (k, d) => new NenError(CODES[k], d));
    const plain: Uint8Array[] = [];
    for (const w of wire) plain.push(o.pushCoalesced(w));
    o.end();
    expect(same(concatBytes(...plain), new Uint8Array([1, 2]))).toBe(true);
    // calls: record 0 (non-final), record 1 (final: fails, then non-final), record 2 (non-final), record 3 (final)
    expect(openSeen.size).toBe(5);
    expect(same(openSeen.get(1)?.aad, recordAad(aad, 1, true))).toBe(true);
    expect(same(openSeen.get(2)?.aad, recordAad(aad, 1, false))).toBe(true);
    expect(same(openSeen.get(4)?.aad, recordAad(aad, 3, true))).toBe(true);
    expect(o.finished).toBe(true);
  });

  it('RecordNonceAad matches computeNonce / recordAad for indices in every byte range', () => {
    const na = new RecordNonceAad(iv, seq, aad);
    for (const index of [0, 0x7f, 0x100, 0x10000, 0x01000000, 0x80000000, 0xfeffffff, 0xfffffffe, 0xffffffff]) {
      for (const final of [false, true]) {
        na.set(index, final);
        expect(same(na.nonce, computeNonce(iv, seq, index))).toBe(true);
        expect(same(na.aad, recordAad(aad, index, final))).toBe(true);
      }
    }
  });
});
