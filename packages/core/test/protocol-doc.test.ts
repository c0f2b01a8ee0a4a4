/**
 * PROTOCOL.md is the source of truth for the wire: its constants (labels, suite ids, key sizes,
 * flag bits, record limits, windows, header names and media types; §11's OHTTP media types, KEM and
 * suite ids, labels and key configuration sizes) read from the document itself
 * and compared with the code's, so a change to either side without the other fails here.
 *
 * Pitfalls:
 *  - The document is parsed by the phrases that carry each value (a table row, "Sizes: ...",
 *    "16 ≤ len ≤ 65536 + 16"): rewording one of them fails this test with "not found", which is
 *    the point (reword, then update the pattern).
 *  - Labels are compared as sets of strings, both ways: a label the document lists that the code
 *    lacks fails as surely as one the code added without documenting it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AEAD_KEY_LENGTH, AEAD_NONCE_LENGTH, AEAD_TAG_LENGTH, KEM_ID, KEM_SIZES } from '../src/backend/types.js';
import { fromUtf8 } from '../src/protocol/bytes.js';
import {
  DEFAULT_TIMESTAMP_WINDOW_MS,
  HEADER,
  HPKE_AEAD_ID,
  HPKE_KDF_ID,
  HS_FLAG,
  KEY_ID_PATTERN,
  LABEL,
  MAX_RECORD_PLAINTEXT,
  MEDIA_TYPE,
  PROTOCOL_VERSION,
  RECORD_HEADER_LENGTH,
  REQ_FLAG,
  REQ_FLAGS_ALL,
  RES_FLAG,
  RES_FLAGS_ALL,
  SESSION_ID_LENGTH,
} from '../src/protocol/constants.js';
import { REPLAY_WINDOW_WIDTH } from '../src/protocol/replay.js';
import { DEFAULT_SUITES, encodeKeyConfig } from '../src/ohttp/key-config-codec.js';
import { OHTTP_LABEL, OHTTP_MEDIA, requestHeader } from '../src/ohttp/request-header.js';
import { OHTTP_AEAD, OHTTP_KDF, OHTTP_KEM, OHTTP_KEM_INFO } from '../src/ohttp/suites.js';

const doc = readFileSync(new URL('../../../PROTOCOL.md', import.meta.url), 'utf8');

/** The first match of `re` in PROTOCOL.md (fails the test, naming the pattern, when there is none). */
function find(re: RegExp): RegExpMatchArray {
  const m = doc.match(re);
  expect(m, `PROTOCOL.md: not found: ${re}`).not.toBeNull();
  return m as RegExpMatchArray;
}

/** The text of a section: from its heading to the next heading of the same level. */
function section(heading: string): string {
  const at = doc.indexOf(heading);
  expect(at, `PROTOCOL.md: no heading ${heading}`).toBeGreaterThanOrEqual(0);
  const next = doc.indexOf('\n## ', at + heading.length);
  return doc.slice(at, next < 0 ? undefined : next);
}

/** `name -> value` of the flag table rows `| 0x.. | NAME | ... |` in `text`. */
function flagTable(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^\| (0x[0-9a-f]{2}) \| ([A-Z_]+) \|/gm)) out[m[2] as string] = Number(m[1]);
  return out;
}

describe('PROTOCOL.md constants = the code', () => {
  it('§1 labels: the same set of ASCII strings as LABEL', () => {
    const table = find(/Labels \(ASCII\):\n([\s\S]*?)\n## /)[1] as string;
    const documented = [...table.matchAll(/`(nen\/1 [a-z0-9 ]+)`/g)].map((m) => m[1]).sort();
    const code = Object.values(LABEL)
      .map((b) => fromUtf8(b))
      .sort();
    expect(documented).toEqual(code);
  });

  it('§1 suite ids and sizes: KEM ids, HPKE KDF / AEAD ids, key and encapsulation sizes, AEAD lengths', () => {
    expect(Number(find(/X-Wing = MLKEM768-X25519, HPKE KEM id `(0x[0-9a-f]{4})`/)[1])).toBe(KEM_ID.XWING);
    expect(Number(find(/ML-KEM-768, HPKE KEM id `(0x[0-9a-f]{4})`/)[1])).toBe(KEM_ID.MLKEM768);
    expect(Number(find(/KDF HKDF-SHA256 \(`(0x[0-9a-f]{4})`\)/)[1])).toBe(HPKE_KDF_ID);
    expect(Number(find(/AEAD ChaCha20-Poly1305 \(`(0x[0-9a-f]{4})`\)/)[1])).toBe(HPKE_AEAD_ID);
    const sizes = find(
      /X-Wing public key (\d+), encapsulation (\d+), private key \(seed\) (\d+); ML-KEM-768 public key\s+(\d+), encapsulation (\d+), private key \(seed `d \|\| z`\) (\d+)/,
    )
      .slice(1, 7)
      .map(Number);
    const x = KEM_SIZES[KEM_ID.XWING];
    const m = KEM_SIZES[KEM_ID.MLKEM768];
    expect(sizes).toEqual([x.publicKey, x.enc, x.privateKey, m.publicKey, m.enc, m.privateKey]);
    const aead = find(/(\d+)-byte key, (\d+)-byte nonce, (\d+)-byte tag/)
      .slice(1, 4)
      .map(Number);
    expect(aead).toEqual([AEAD_KEY_LENGTH, AEAD_NONCE_LENGTH, AEAD_TAG_LENGTH]);
  });

  it('§2 key ids, §3 handshake flags', () => {
    expect(find(/key id `kid` matching\s+`([^`]+)`/)[1]).toBe(KEY_ID_PATTERN.source.replace(/^\^|\$$/g, ''));
    expect(Number(find(/flags: bit 0 STATIC \((0x[0-9a-f]{2})\)/)[1])).toBe(HS_FLAG.STATIC);
  });

  it('§5 request flags: the table is REQ_FLAG, and 0..REQ_FLAGS_ALL', () => {
    expect(flagTable(section('## 5. Requests'))).toEqual({ ...REQ_FLAG });
    expect(Object.values(REQ_FLAG).reduce((a, b) => a | b, 0)).toBe(REQ_FLAGS_ALL);
    expect(Number(find(/flags \(0\.\.(\d+)\)/)[1])).toBe(REQ_FLAGS_ALL);
    expect(find(/`nen: (\d)\.<sid>\.<epoch>\.<seq>\.<ts>\.<flags>`/)[1]).toBe(String(PROTOCOL_VERSION));
    expect(find(/session_id\[(\d+)\]/)[1]).toBe(String(SESSION_ID_LENGTH));
  });

  it('§5 response flags: COMPRESSED and STREAM, the header values 0, 1, 4 or 5', () => {
    const text = find(/Response flags: `(0x[0-9a-f]{2})` COMPRESSED[\s\S]*?`(0x[0-9a-f]{2})` STREAM/);
    expect({ COMPRESSED: Number(text[1]), STREAM: Number(text[2]) }).toEqual({ ...RES_FLAG });
    const values = find(/flags one decimal digit, ([\d, or]+)\./)[1] as string;
    const allowed = [...values.matchAll(/\d+/g)].map((v) => Number(v[0]));
    const subsets = [0, RES_FLAG.COMPRESSED, RES_FLAG.STREAM, RES_FLAGS_ALL];
    expect(allowed).toEqual(subsets);
    expect(RES_FLAG.COMPRESSED | RES_FLAG.STREAM).toBe(RES_FLAGS_ALL);
  });

  it('§6 stream records: u32 length, 16 ≤ len ≤ MAX_RECORD_PLAINTEXT + tag', () => {
    const m = find(/`u32\(len\) \|\| sealed_i` with\s+`(\d+) ≤ len ≤ (\d+) \+ (\d+)`/);
    expect(Number(m[1])).toBe(AEAD_TAG_LENGTH);
    expect(Number(m[2])).toBe(MAX_RECORD_PLAINTEXT);
    expect(Number(m[3])).toBe(AEAD_TAG_LENGTH);
    expect(RECORD_HEADER_LENGTH).toBe(4);
  });

  it('windows: timestamp ±30 s, replay window 1024 (at least the documented width)', () => {
    const m = find(/timestamp window ±(\d+) s, replay window (\d+)/);
    expect(Number(m[1]) * 1000).toBe(DEFAULT_TIMESTAMP_WINDOW_MS);
    expect(Number(m[2])).toBe(REPLAY_WINDOW_WIDTH);
    expect(REPLAY_WINDOW_WIDTH).toBeGreaterThanOrEqual(Number(find(/The window \(≥ (\d+) wide/)[1]));
  });

  it('header names and media types: each one the code uses is in the document', () => {
    for (const h of Object.values(HEADER)) expect(doc, h).toContain(`\`${h}`);
    for (const t of Object.values(MEDIA_TYPE)) expect(doc, t).toContain(`\`${t}\``);
  });

  it('§11 OHTTP: media types, labels, KEM and suite ids, the request header and key config sizes', () => {
    const ohttp = section('## 11. Oblivious HTTP mode');
    for (const t of Object.values(OHTTP_MEDIA)) expect(ohttp, t).toContain(`\`${t}\``);
    for (const l of Object.values(OHTTP_LABEL)) expect(ohttp, l).toContain(`"${l}"`);
    const kems = find(
      /X-Wing `(0x[0-9a-f]{4})` \(the\s+default, (\d+)-byte pkR, (\d+)-byte enc\), ML-KEM-768 `(0x[0-9a-f]{4})`, and DHKEM\(X25519, HKDF-SHA256\)\s+`(0x[0-9a-f]{4})`/,
    );
    const x = OHTTP_KEM_INFO[OHTTP_KEM.XWING];
    expect(kems.slice(1, 6).map(Number)).toEqual([OHTTP_KEM.XWING, x.publicKey, x.enc, OHTTP_KEM.MLKEM768, OHTTP_KEM.X25519]);
    const suites = find(/HKDF-SHA256 `(0x[0-9a-f]{4})` with ChaCha20-Poly1305 `(0x[0-9a-f]{4})`\s+\(preferred\) or AES-128-GCM `(0x[0-9a-f]{4})`/);
    expect(suites.slice(1, 4).map(Number)).toEqual([OHTTP_KDF.HKDF_SHA256, OHTTP_AEAD.CHACHA20_POLY1305, OHTTP_AEAD.AES_128_GCM]);
    expect(DEFAULT_SUITES).toEqual([
      { kdfId: OHTTP_KDF.HKDF_SHA256, aeadId: OHTTP_AEAD.CHACHA20_POLY1305 },
      { kdfId: OHTTP_KDF.HKDF_SHA256, aeadId: OHTTP_AEAD.AES_128_GCM },
    ]);
    const sizes = find(/An X-Wing config with both suites is (\d+) bytes \((\d+) with\s+one\)/);
    const config = (n: number) =>
      encodeKeyConfig({ keyId: 1, kemId: OHTTP_KEM.XWING, publicKey: new Uint8Array(x.publicKey), suites: DEFAULT_SUITES.slice(0, n) }).length;
    expect([Number(sizes[1]), Number(sizes[2])]).toEqual([config(2), config(1)]);
    expect(Number(find(/`hdr = key_id \|\| kem_id \|\| kdf_id \|\| aead_id` \((\d+) bytes\)/)[1])).toBe(requestHeader(1, 2, 3, 4).length);
  });
});
