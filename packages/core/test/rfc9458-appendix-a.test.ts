/**
 * RFC 9458 Appendix A ("Complete Example of a Request and Response"), DHKEM(X25519) /
 * HKDF-SHA256 / AES-128-GCM, reproduced byte for byte: the key configuration from the gateway's
 * secret key, the binary HTTP request, info, the encapsulated request from the client's ephemeral
 * secret key, the gateway opening it, the binary HTTP response, and the encapsulated response
 * from the listed response_nonce (both directions).
 *
 * The RFC's example HTTP messages say `Content-Length: 78` (request) and `Content-Length: 38`
 * (response), but its own bytes are 80 and 35 bytes long: the hex below is authoritative and the
 * test asserts 80 and 35. Source: RFC 9458 Appendix A (hex values copied from the RFC text).
 */
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../src/protocol/bytes.js';
import { decodeBhttpRequest, decodeBhttpResponse, encodeBhttpRequest, encodeBhttpResponse } from '../src/ohttp/bhttp.js';
import { decapsulateRequest, encapsulateRequest, requestHeader, requestInfo } from '../src/ohttp/encapsulation.js';
import { OHTTP_AEAD, OHTTP_KEM, OhttpPrivateKey } from '../src/ohttp/hpke.js';
import { OhttpGatewayKeys, encodeKeyConfig, parseKeyConfig } from '../src/ohttp/key-config.js';

const SK_R = '3c168975674b2fa8e465970b79c8dcf09f1c741626480bd4c6162fc5b6a98e1a';
const KEY_CONFIG = '01002031e1f05a740102115220e9af918f738674aec95f54db6e04eb705aae8e79815500080001000100010003';
const REQUEST = '00034745540568747470730b6578616d706c652e636f6d012f';
const SK_E = 'bc51d5e930bda26589890ac7032f70ad12e4ecb37abb1b65b1256c9c48999c73';
const PK_E = '4b28f881333e7c164ffc499ad9796f877f4e1051ee6d31bad19dec96c208b472';
const INFO = '6d6573736167652f626874747020726571756573740001002000010001';
const ENC_REQUEST =
  '010020000100014b28f881333e7c164ffc499ad9796f877f4e1051ee6d31bad19dec96c208b4726374e469135906992e1268c594d2a10c695d858c40a026e7965e7d86b83dd440b2c0185204b4d63525';
const RESPONSE = '0140c8';
const RESPONSE_NONCE = 'c789e7151fcba46158ca84b04464910d';
const ENC_RESPONSE = 'c789e7151fcba46158ca84b04464910d86f9013e404feea014e7be4a441f234f857fbd';

const AES128 = { kdfId: 1, aeadId: OHTTP_AEAD.AES_128_GCM };

describe('RFC 9458 Appendix A (X25519, AES-128-GCM)', () => {
  const sk = new OhttpPrivateKey(OHTTP_KEM.X25519, fromHex(SK_R));
  const config = {
    keyId: 1,
    kemId: OHTTP_KEM.X25519,
    publicKey: sk.publicKey,
    suites: [
      { kdfId: 1, aeadId: 1 },
      { kdfId: 1, aeadId: 3 },
    ],
  };

  it('key configuration from the secret key, and parsed back', () => {
    expect(toHex(encodeKeyConfig(config))).toBe(KEY_CONFIG);
    expect(parseKeyConfig(fromHex(KEY_CONFIG))).toEqual(config);
  });

  it('binary HTTP request and response (truncated forms) both ways', () => {
    const req = decodeBhttpRequest(fromHex(REQUEST));
    expect(req).toMatchObject({ method: 'GET', scheme: 'https', authority: 'example.com', path: '/', headers: [], trailers: [] });
    expect(decodeBhttpResponse(fromHex(RESPONSE))).toMatchObject({ status: 200, headers: [], informational: [] });
    // Our encoder does not truncate: same message with the empty sections written out.
    expect(toHex(encodeBhttpRequest(req))).toBe(`${REQUEST}000000`);
    expect(toHex(encodeBhttpResponse({ informational: [], status: 200, headers: [], content: new Uint8Array(0), trailers: [] }))).toBe(`${RESPONSE}000000`);
  });

  it('info and the encapsulated request, byte for byte (80 bytes, not the 78 of the RFC Content-Length line)', () => {
    expect(toHex(requestInfo('message/bhttp request', requestHeader(1, 0x20, 1, 1)))).toBe(INFO);
    const c = encapsulateRequest(config, fromHex(REQUEST), { suite: AES128, randomness: fromHex(SK_E) });
    expect(toHex(c.enc)).toBe(PK_E);
    expect(toHex(c.encapsulatedRequest)).toBe(ENC_REQUEST);
    expect(c.encapsulatedRequest.length).toBe(80);
    expect(toHex(c.openResponse(fromHex(ENC_RESPONSE)))).toBe(RESPONSE);
  });

  it('the gateway opens it and seals the encapsulated response byte for byte (35 bytes, not 38)', () => {
    const keys = new OhttpGatewayKeys([{ keyId: 1, key: sk, suites: config.suites }]);
    const d = decapsulateRequest(keys, fromHex(ENC_REQUEST));
    expect(toHex(d.request)).toBe(REQUEST);
    expect(toHex(d.enc)).toBe(PK_E);
    const res = d.sealResponse(fromHex(RESPONSE), fromHex(RESPONSE_NONCE));
    expect(toHex(res)).toBe(ENC_RESPONSE);
    expect(res.length).toBe(35);
  });
});
