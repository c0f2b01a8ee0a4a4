/**
 * `nen fetch` argument parsing for the OHTTP mode (--ohttp, --key-config, --relay): the key
 * config is always pinned (a value or a sha256: digest), and the OHTTP flags need --ohttp.
 * The request itself runs @nen/client's OHTTP mode (packages/client/test/ohttp.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeOf, keyConfigArg, parseFetchArgs } from './cli-fetch.js';

describe('nen fetch --ohttp', () => {
  it('parses the OHTTP flags and refuses an unpinned or half-given OHTTP request', () => {
    const a = parseFetchArgs(['--ohttp', '--key-config', 'sha256:x', '--relay', 'http://127.0.0.1:8787/', 'http://a.example/api'], {});
    expect(a).toMatchObject({ ohttp: true, keyConfig: 'sha256:x', relay: 'http://127.0.0.1:8787/', method: 'GET' });
    expect(() => parseFetchArgs(['--ohttp', 'http://a.example/'], {})).toThrow(/--key-config/);
    expect(() => parseFetchArgs(['--relay', 'http://r.example/', 'http://a.example/'], {})).toThrow(/need --ohttp/);
    expect(() => parseFetchArgs(['--ohttp', '--key-config', 'k', '--relay', 'ftp://r', 'http://a.example/'], {})).toThrow(/--relay/);
  });

  it('reads --key-config as a pin, base64url text, or a file (binary or base64url)', () => {
    expect(keyConfigArg('sha256:abc')).toBe('sha256:abc');
    const b64 = 'A'.repeat(64);
    expect(keyConfigArg(b64)).toBe(b64);
    const dir = mkdtempSync(join(tmpdir(), 'nen-kc-'));
    try {
      writeFileSync(join(dir, 'kc.txt'), `${b64}\n`);
      expect(keyConfigArg(join(dir, 'kc.txt'))).toBe(b64);
      writeFileSync(join(dir, 'kc.bin'), Uint8Array.of(1, 0x64, 0x7a, 0xff));
      expect(keyConfigArg(join(dir, 'kc.bin'))).toEqual(Uint8Array.of(1, 0x64, 0x7a, 0xff));
      expect(() => keyConfigArg(join(dir, 'missing'))).toThrow(/cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(exitCodeOf('NEN_OHTTP_KEY_MISMATCH')).toBe(3);
  });
});
