/**
 * OHTTP codec (RFC 9458 request / response, chunked OHTTP, key configs) in both roles, for every
 * KEM (X-Wing, ML-KEM-768, X25519) and AEAD, and the attacks on the encapsulation: a tampered
 * header / enc / ciphertext, a truncated message, a swapped response, an unknown key id, a suite
 * the config does not offer, reordered / dropped / truncated chunks, oversized chunks.
 */
import { describe, expect, it } from 'vitest';
import { concatBytes } from '../protocol/bytes.js';
import { ChunkedRequestOpener, encapsulateChunkedRequest } from './chunked.js';
import { decapsulateRequest, encapsulateRequest } from './encapsulation.js';
import { OHTTP_AEAD, OHTTP_KEM, OHTTP_KEM_INFO, type OhttpKemId } from './hpke.js';
import { OhttpGatewayKeys, encodeKeyConfigs, generateOhttpKey, parseKeyConfigs, parseOhttpKey } from './key-config.js';

const KEMS: [string, OhttpKemId][] = [
  ['xwing', OHTTP_KEM.XWING],
  ['mlkem768', OHTTP_KEM.MLKEM768],
  ['x25519', OHTTP_KEM.X25519],
];
const AEADS = [OHTTP_AEAD.CHACHA20_POLY1305, OHTTP_AEAD.AES_128_GCM];

function gateway(kem: OhttpKemId = OHTTP_KEM.XWING, keyId = 7): OhttpGatewayKeys {
  return OhttpGatewayKeys.parse(generateOhttpKey(keyId, kem));
}

function code(f: () => unknown): { code?: string; status?: number } {
  try {
    f();
  } catch (e) {
    return e as { code?: string; status?: number };
  }
  throw new Error('expected a throw');
}

const msg = new TextEncoder().encode('binary http request bytes');

describe('OHTTP request / response', () => {
  for (const [name, kem] of KEMS) {
    for (const aeadId of AEADS) {
      it(`${name} / AEAD ${aeadId}: round trip, sizes`, () => {
        const keys = gateway(kem);
        const [config] = keys.configs();
        if (!config) throw new Error('no config');
        const c = encapsulateRequest(config, msg, { suite: { kdfId: 1, aeadId } });
        expect(c.encapsulatedRequest.length).toBe(7 + OHTTP_KEM_INFO[kem].enc + msg.length + 16);
        const d = decapsulateRequest(keys, c.encapsulatedRequest);
        expect(d.request).toEqual(msg);
        expect(d.enc).toEqual(c.enc);
        const res = d.sealResponse(msg);
        expect(c.openResponse(res)).toEqual(msg);
      });
    }
  }

  it('X-Wing sizes: key config 1,225 bytes in application/ohttp-keys form (2 + 1,223... per config), header 1,127', () => {
    const keys = gateway(OHTTP_KEM.XWING);
    const body = encodeKeyConfigs(keys.configs());
    // 1 key id + 2 KEM + 1216 public key + 2 length + 2 suites x 4 = 1229, plus the 2-byte prefix
    expect(body.length).toBe(2 + 1 + 2 + 1216 + 2 + 8);
    expect(parseKeyConfigs(body)).toEqual(keys.configs());
  });

  it('every single-byte change of the encapsulated request is refused with a typed 400', () => {
    const keys = gateway(OHTTP_KEM.X25519);
    const [config] = keys.configs();
    if (!config) throw new Error('no config');
    const { encapsulatedRequest: er } = encapsulateRequest(config, msg);
    const seen = new Set<string>();
    for (let i = 0; i < er.length; i++) {
      const t = er.slice();
      t[i] = (t[i] as number) ^ 0x01;
      const e = code(() => decapsulateRequest(keys, t));
      expect(e.status).toBe(400);
      seen.add(e.code as string);
    }
    expect([...seen].sort()).toEqual(['NEN_OHTTP_DECRYPT', 'NEN_OHTTP_KEY_UNKNOWN', 'NEN_OHTTP_UNSUPPORTED_SUITE']);
  });

  it('typed errors: unknown key id, KEM mismatch, suite not offered, truncated, tampered, swapped response', () => {
    const keys = gateway(OHTTP_KEM.XWING, 3);
    const [config] = keys.configs();
    if (!config) throw new Error('no config');
    const c = encapsulateRequest(config, msg);
    const er = c.encapsulatedRequest;
    expect(code(() => decapsulateRequest(keys, concatBytes(Uint8Array.of(4), er.subarray(1))))).toMatchObject({ code: 'NEN_OHTTP_KEY_UNKNOWN', status: 400 });
    expect(code(() => decapsulateRequest(gateway(OHTTP_KEM.MLKEM768, 3), er))).toMatchObject({ code: 'NEN_OHTTP_KEY_UNKNOWN', status: 400 });
    expect(code(() => encapsulateRequest(config, msg, { suite: { kdfId: 1, aeadId: 2 } }))).toMatchObject({ code: 'NEN_CRYPTO_UNSUPPORTED' });
    const aes256 = concatBytes(er.subarray(0, 5), Uint8Array.of(0, 2), er.subarray(7));
    expect(code(() => decapsulateRequest(keys, aes256))).toMatchObject({ code: 'NEN_OHTTP_UNSUPPORTED_SUITE', status: 400 });
    for (const n of [0, 3, 7, 500, 7 + 1120, 7 + 1120 + 15]) {
      expect(code(() => decapsulateRequest(keys, er.subarray(0, n)))).toMatchObject({ code: 'NEN_OHTTP_MALFORMED', status: 400 });
    }
    expect(code(() => decapsulateRequest(keys, er.subarray(0, er.length - 1)))).toMatchObject({ code: 'NEN_OHTTP_DECRYPT', status: 400 });
    // a response sealed for another request (same gateway) does not open
    const other = encapsulateRequest(config, msg);
    const otherRes = decapsulateRequest(keys, other.encapsulatedRequest).sealResponse(msg);
    expect(code(() => c.openResponse(otherRes))).toMatchObject({ code: 'NEN_OHTTP_DECRYPT', status: 400 });
    const res = decapsulateRequest(keys, er).sealResponse(msg);
    expect(code(() => c.openResponse(res.subarray(0, 40)))).toMatchObject({ code: 'NEN_OHTTP_MALFORMED', status: 400 });
  });

  it('a key config list skips unknown KEMs and rejects malformed input (NEN_OHTTP_BAD_KEY_CONFIG)', () => {
    const keys = gateway(OHTTP_KEM.X25519, 9);
    const good = encodeKeyConfigs(keys.configs());
    const unknown = Uint8Array.of(0, 9, 1, 0x00, 0x99, 0, 0, 0, 0, 0, 0);
    expect(parseKeyConfigs(concatBytes(unknown, good))).toEqual(keys.configs());
    expect(code(() => parseKeyConfigs(good.subarray(0, good.length - 1)))).toMatchObject({ code: 'NEN_OHTTP_BAD_KEY_CONFIG' });
    expect(code(() => parseKeyConfigs(unknown))).toMatchObject({ code: 'NEN_OHTTP_BAD_KEY_CONFIG' });
    expect(code(() => parseOhttpKey('1:xwing:AAAA'))).toMatchObject({ code: 'NEN_OHTTP_BAD_KEY_CONFIG' });
    expect(code(() => OhttpGatewayKeys.parse(`${generateOhttpKey(1)},${generateOhttpKey(1)}`))).toMatchObject({ code: 'NEN_OHTTP_BAD_KEY_CONFIG' });
  });
});

function chunkedRequest(keys: OhttpGatewayKeys, parts: Uint8Array[]) {
  const [config] = keys.configs();
  if (!config) throw new Error('no config');
  const c = encapsulateChunkedRequest(config);
  const frames = parts.map((p, i) => c.sealChunk(p, i === parts.length - 1));
  return { c, frames };
}

function openChunked(keys: OhttpGatewayKeys, bytes: Uint8Array[], step = 0): Uint8Array[] {
  const o = new ChunkedRequestOpener(keys);
  const out: Uint8Array[] = [];
  const all = concatBytes(...bytes);
  if (step > 0) for (let i = 0; i < all.length; i += step) out.push(...o.push(all.subarray(i, i + step)));
  else out.push(...o.push(all));
  out.push(o.end());
  return out;
}

describe('chunked OHTTP', () => {
  for (const [name, kem] of KEMS) {
    it(`${name}: request chunks in any split, response chunks back, final chunk detected`, () => {
      const keys = gateway(kem);
      const parts = [msg, new Uint8Array(20000).fill(7), msg];
      const { c, frames } = chunkedRequest(keys, parts);
      for (const step of [0, 1, 13, 4096]) {
        expect(openChunked(keys, [c.header, ...frames], step)).toEqual(parts);
      }
      const o = new ChunkedRequestOpener(keys);
      o.push(concatBytes(c.header, ...frames));
      o.end();
      const s = o.responseSealer();
      const body = concatBytes(s.start(), s.sealChunk(msg), s.sealChunk(new Uint8Array(0)), s.sealChunk(msg), s.sealChunk(new Uint8Array(0), true));
      const ro = c.responseOpener();
      const got: Uint8Array[] = [];
      for (let i = 0; i < body.length; i += 5) got.push(...ro.push(body.subarray(i, i + 5)));
      expect(got).toEqual([msg, msg]);
      expect(ro.end()).toEqual(new Uint8Array(0));
    });
  }

  it('truncated, reordered, dropped, forged-final, empty and oversized chunks are refused', () => {
    const keys = gateway(OHTTP_KEM.X25519);
    const parts = [msg, msg, msg];
    const { c, frames } = chunkedRequest(keys, parts);
    const [a, b, f] = frames as [Uint8Array, Uint8Array, Uint8Array];
    expect(code(() => openChunked(keys, [c.header, a, b]))).toMatchObject({ code: 'NEN_OHTTP_TRUNCATED', status: 400 });
    expect(code(() => openChunked(keys, [c.header, b, a, f]))).toMatchObject({ code: 'NEN_OHTTP_DECRYPT', status: 400 });
    expect(code(() => openChunked(keys, [c.header, a, f]))).toMatchObject({ code: 'NEN_OHTTP_DECRYPT', status: 400 });
    expect(code(() => openChunked(keys, [c.header, a, b, f.subarray(0, f.length - 1)]))).toMatchObject({ code: 'NEN_OHTTP_DECRYPT', status: 400 });
    // a non-final chunk relabelled final (length prefix 0): its AAD was empty, "final" fails
    expect(code(() => openChunked(keys, [c.header, a, concatBytes(Uint8Array.of(0), b.subarray(1))]))).toMatchObject({
      code: 'NEN_OHTTP_DECRYPT',
      status: 400,
    });
    expect(code(() => openChunked(keys, [c.header.subarray(0, 20)]))).toMatchObject({ code: 'NEN_OHTTP_MALFORMED', status: 400 });
    // a declared chunk length over the bound: refused before buffering it
    const huge = Uint8Array.of(0x80, 0x10, 0x00, 0x00);
    expect(code(() => new ChunkedRequestOpener(keys).push(concatBytes(c.header, huge)))).toMatchObject({ code: 'NEN_TOO_LARGE', status: 413 });
    // an empty non-final chunk (sealed by a non-conforming sender) is a decryption error
    const [config] = keys.configs();
    if (!config) throw new Error('no config');
    const c2 = encapsulateChunkedRequest(config);
    const empty = c2.sealChunk(new Uint8Array(0));
    expect(empty.length).toBe(0);
    const truncatedResponse = c.responseOpener();
    expect(code(() => truncatedResponse.end())).toMatchObject({ code: 'NEN_OHTTP_TRUNCATED', status: 400 });
  });
});
