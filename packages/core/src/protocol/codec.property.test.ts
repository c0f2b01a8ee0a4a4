/**
 * Property-based tests (fast-check) for the Nen v1 wire codec (PROTOCOL.md "Requests and
 * responses", "Handshake"; RFC 4648 §5 base64url): the `nen` request header, ClientHello /
 * ServerHello, the confidential-query envelope, the `nen-body` header record and the canonical
 * request AAD.
 *
 * Properties:
 *  - encode → decode is the identity on every valid value (round trip);
 *  - decoders are total: on arbitrary strings / bytes they either return a value or throw a
 *    NenProtocolError whose `code` is in the catalog (WIRE_ERRORS / CLIENT_ERRORS), never a
 *    TypeError, RangeError or anything else;
 *  - decoding is canonical: a decoded value re-encodes to exactly the input (no two encodings of
 *    one value), so the AAD can bind the encoded form;
 *  - sequence numbers outside 1..2^64-1 are rejected with NEN_MALFORMED.
 *
 * Pitfall: fast-check shrinks failures; a failing run prints the seed and the minimal input, which
 * reproduce with `fc.assert(..., { seed, path })`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEM_ID, KEM_SIZES, type KemId } from '../backend/types.js';
import { fromBase64Url, toBase64Url } from './bytes.js';
import { CLIENT_ERRORS, NenProtocolError, WIRE_ERRORS } from './codes.js';
import { CONFIRM_LENGTH, HS_FLAG, PROTOCOL_VERSION, REQ_FLAGS_ALL } from './constants.js';
import { decodeClientHello, decodeServerHello, encodeClientHello, encodeServerHelloBody, type ClientHello } from './handshake.js';
import {
  decodeHeaderRecord,
  formatRequestHeader,
  packConfidentialQuery,
  parseRequestHeader,
  parseResponseHeader,
  requestAad,
  unpackConfidentialQuery,
  type RequestMeta,
} from './message.js';

const U64_MAX = (1n << 64n) - 1n;
const RUNS = { numRuns: 400 };

/** Runs `f`; passes when it returns, or throws a NenProtocolError with a catalogued code. */
function totalOrCoded<T>(f: () => T, codes: readonly string[] = Object.keys(WIRE_ERRORS)): { ok: true; value: T } | { ok: false; code: string } {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (!(e instanceof NenProtocolError)) throw new Error(`decoder threw a non-Nen error: ${String(e)}`, { cause: e });
    if (!codes.includes(e.code)) throw new Error(`decoder threw an uncatalogued code ${e.code}`);
    return { ok: false, code: e.code };
  }
}

function expectCode(f: () => unknown, code: string): void {
  const r = totalOrCoded(f);
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.code).toBe(code);
}

const arbSessionId = fc.uint8Array({ minLength: 16, maxLength: 16 });
const arbMeta: fc.Arbitrary<RequestMeta> = fc.record({
  sessionId: arbSessionId,
  epoch: fc.integer({ min: 0, max: 0xffffffff }),
  seq: fc.bigInt({ min: 1n, max: U64_MAX }),
  timestamp: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  flags: fc.integer({ min: 0, max: REQ_FLAGS_ALL }),
});

/** Strings built from the header's own alphabet, so mutations get past the first checks. */
const headerish = fc.string({ unit: fc.constantFrom(...'0123456789.-_abcXYZ+/= \u00e9'.split('')), maxLength: 110 });

describe('nen request header', () => {
  it('round-trips every valid RequestMeta and re-encodes canonically', () => {
    fc.assert(
      fc.property(arbMeta, (m) => {
        const s = formatRequestHeader(m);
        const d = parseRequestHeader(s);
        expect(d.sessionId).toEqual(m.sessionId);
        expect([d.epoch, d.seq, d.timestamp, d.flags]).toEqual([m.epoch, m.seq, m.timestamp, m.flags]);
        expect(formatRequestHeader(d)).toBe(s);
      }),
      RUNS,
    );
  });

  it('is total on arbitrary strings and canonical when it accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 120 }), headerish, fc.string({ unit: 'binary', maxLength: 120 })), (s) => {
        const r = totalOrCoded(() => parseRequestHeader(s));
        if (r.ok) expect(formatRequestHeader(r.value)).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-character mutation of a valid header with a code, or accepts only canonical forms', () => {
    fc.assert(
      fc.property(arbMeta, fc.nat(), fc.constantFrom(...'0123456789.-_aZ+/= x'.split('')), (m, pos, ch) => {
        const s = formatRequestHeader(m);
        const i = pos % s.length;
        const mutated = s.slice(0, i) + ch + s.slice(i + 1);
        const r = totalOrCoded(() => parseRequestHeader(mutated));
        if (r.ok) expect(formatRequestHeader(r.value)).toBe(mutated);
      }),
      RUNS,
    );
  });

  it('rejects sequence numbers 0, negative, non-numeric and >= 2^64 with NEN_MALFORMED', () => {
    const sid = toBase64Url(new Uint8Array(16));
    const base = (seq: string) => `${PROTOCOL_VERSION}.${sid}.0.${seq}.${Date.now()}.0`;
    fc.assert(
      fc.property(fc.bigInt({ min: U64_MAX + 1n, max: 10n ** 30n }), (seq) => expectCode(() => parseRequestHeader(base(String(seq))), 'NEN_MALFORMED')),
      RUNS,
    );
    for (const seq of ['0', '-1', '1e3', '0x10', '01', '', ' 1', '18446744073709551616', '99999999999999999999', 'NaN']) {
      expectCode(() => parseRequestHeader(base(seq)), 'NEN_MALFORMED');
    }
    expect(parseRequestHeader(base(String(U64_MAX))).seq).toBe(U64_MAX);
  });

  it('missing header → NEN_NOT_ENCRYPTED, other version → NEN_UNSUPPORTED_VERSION', () => {
    expectCode(() => parseRequestHeader(null), 'NEN_NOT_ENCRYPTED');
    fc.assert(
      fc.property(arbMeta, fc.integer({ min: 2, max: 9 }), (m, v) =>
        expectCode(() => parseRequestHeader(formatRequestHeader(m).replace(/^1\./, `${v}.`)), 'NEN_UNSUPPORTED_VERSION'),
      ),
      { numRuns: 50 },
    );
  });

  it('parseResponseHeader never throws and accepts only "1.<known flags>"', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ maxLength: 12 }), { nil: null }), (s) => {
        const r = parseResponseHeader(s);
        if (r) expect(s).toBe(`1.${r.flags}`);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('canonical request AAD', () => {
  it('is injective over (method, target, content type): length prefixes prevent field shifting', () => {
    const m: RequestMeta = { sessionId: new Uint8Array(16), epoch: 0, seq: 1n, timestamp: 0, flags: 0 };
    const tuple = fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 16 }), fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(tuple, tuple, (a, b) => {
        fc.pre(a[0] !== b[0] || a[1] !== b[1] || a[2] !== b[2]);
        expect(requestAad(m, ...a)).not.toEqual(requestAad(m, ...b));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('base64url (RFC 4648 §5, strict)', () => {
  it('round-trips bytes and decodes only canonical strings', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        expect(fromBase64Url(toBase64Url(b))).toEqual(b);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const b = fromBase64Url(s);
        if (b !== null) expect(toBase64Url(b)).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  it('decodeHeaderRecord is total (null or bytes), bounded in length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const b = decodeHeaderRecord(s);
        expect(b === null || b instanceof Uint8Array).toBe(true);
      }),
      RUNS,
    );
    expect(decodeHeaderRecord('A'.repeat(16388))).toBeNull();
  });
});

const arbKem = fc.constantFrom<KemId>(KEM_ID.XWING, KEM_ID.MLKEM768);
const arbKid = fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/);
const arbHello: fc.Arbitrary<ClientHello> = fc
  .tuple(arbKem, fc.boolean(), fc.integer({ min: 0, max: 0xffffffff }), arbKid, fc.integer({ min: 0, max: 255 }))
  .map(([kem, pinned, lifetime, kid, fill]) => {
    const sizes = KEM_SIZES[kem];
    const pkEph = new Uint8Array(sizes.publicKey).fill(fill);
    return pinned
      ? { version: PROTOCOL_VERSION, kem, flags: HS_FLAG.STATIC, lifetime, pkEph, kid, encStatic: new Uint8Array(sizes.enc).fill(fill ^ 0x5a) }
      : { version: PROTOCOL_VERSION, kem, flags: 0, lifetime, pkEph };
  });

describe('ClientHello', () => {
  it('round-trips', () => {
    fc.assert(
      fc.property(arbHello, (h) => {
        const d = decodeClientHello(encodeClientHello(h));
        expect(d).toEqual(h);
      }),
      { numRuns: 100 },
    );
  });

  it('is total on arbitrary bytes (short, random, or a valid hello with random damage)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2400 }), (b) => void totalOrCoded(() => decodeClientHello(b))),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(arbHello, fc.nat(), fc.integer({ min: 0, max: 255 }), (h, pos, byte) => {
        const b = encodeClientHello(h);
        const i = pos % b.length;
        const m = b.slice();
        m[i] = byte;
        const r = totalOrCoded(() => decodeClientHello(m));
        if (r.ok) expect(encodeClientHello(r.value)).toEqual(m);
      }),
      RUNS,
    );
  });

  it('rejects every truncation and every extension with NEN_MALFORMED', () => {
    fc.assert(
      fc.property(arbHello, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 8 }), (h, cut, extra) => {
        const b = encodeClientHello(h);
        const n = cut % b.length;
        const r = totalOrCoded(() => decodeClientHello(b.subarray(0, n)));
        expect(r.ok).toBe(false);
        expectCode(() => decodeClientHello(new Uint8Array([...b, ...extra])), 'NEN_MALFORMED');
      }),
      { numRuns: 200 },
    );
  });

  it('unknown KEM ids → NEN_UNSUPPORTED_KEM, unknown versions → NEN_UNSUPPORTED_VERSION', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff }).filter((k) => k !== KEM_ID.XWING && k !== KEM_ID.MLKEM768),
        (kem) => {
          const b = new Uint8Array(8 + 1216);
          b[0] = PROTOCOL_VERSION;
          b[1] = kem >> 8;
          b[2] = kem & 0xff;
          expectCode(() => decodeClientHello(b), 'NEN_UNSUPPORTED_KEM');
        },
      ),
      RUNS,
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }).filter((v) => v !== PROTOCOL_VERSION),
        (v) => {
          const b = encodeClientHello({ version: PROTOCOL_VERSION, kem: KEM_ID.XWING, flags: 0, lifetime: 0, pkEph: new Uint8Array(1216) });
          b[0] = v;
          expectCode(() => decodeClientHello(b), 'NEN_UNSUPPORTED_VERSION');
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('ServerHello', () => {
  it('round-trips and is total on arbitrary bytes (client codes only)', () => {
    fc.assert(
      fc.property(
        arbKem,
        arbSessionId,
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 2 ** 48 }),
        (kem, sessionId, lifetime, serverTime) => {
          const body = encodeServerHelloBody({
            version: 1,
            kem,
            flags: 0,
            sessionId,
            lifetime,
            idleTimeout: 60,
            serverTime,
            encEph: new Uint8Array(KEM_SIZES[kem].enc).fill(7),
          });
          const d = decodeServerHello(new Uint8Array([...body, ...new Uint8Array(CONFIRM_LENGTH).fill(9)]), kem);
          expect([d.sessionId, d.lifetime, d.serverTime, d.confirm.length]).toEqual([sessionId, lifetime, serverTime, CONFIRM_LENGTH]);
        },
      ),
      { numRuns: 100 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1300 }), arbKem, (b, kem) => void totalOrCoded(() => decodeServerHello(b, kem), Object.keys(CLIENT_ERRORS))),
      RUNS,
    );
  });
});

describe('confidential query envelope', () => {
  it('round-trips and is total on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (q, body) => {
        const u = unpackConfidentialQuery(packConfidentialQuery(q, body));
        expect(new TextDecoder().decode(u.query)).toBe(q);
        expect(u.body).toEqual(body);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const r = totalOrCoded(() => unpackConfidentialQuery(b));
        if (r.ok) expect(2 + r.value.query.length + r.value.body.length).toBe(b.length);
      }),
      { numRuns: 1000 },
    );
  });
});
