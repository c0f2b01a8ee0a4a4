/** `nen keygen --ohttp`: the printed NEN_OHTTP_KEYS entry loads as a gateway key whose Key Config and pin are the printed ones; bad options are usage errors (exit 2). */
import { OHTTP_KEM, OhttpGatewayKeys, encodeKeyConfig, fromBase64Url, parseKeyConfig, toBase64Url } from '@nen/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runOhttpKeygen } from './keygen-cli.js';

async function run(args: string[]): Promise<{ rc: number; out: string }> {
  let out = '';
  const w = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out += String(s);
    return true;
  });
  const e = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    return { rc: await runOhttpKeygen(args), out };
  } finally {
    w.mockRestore();
    e.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('nen keygen --ohttp', () => {
  for (const [kem, id] of [
    ['xwing', OHTTP_KEM.XWING],
    ['x25519', OHTTP_KEM.X25519],
    ['mlkem768', OHTTP_KEM.MLKEM768],
  ] as const) {
    it(`${kem}: the entry, its Key Config and its pin agree`, async () => {
      const { rc, out } = await run(['--ohttp', '--kem', kem, '--key-id', '42']);
      expect(rc).toBe(0);
      const entry = /^NEN_OHTTP_KEYS=(.+)$/m.exec(out)?.[1] as string;
      const keys = OhttpGatewayKeys.parse(entry);
      const [config] = keys.configs();
      expect(config).toMatchObject({ keyId: 42, kemId: id });
      const lines = out.split('\n');
      const printed = fromBase64Url((lines[lines.indexOf('# Key Config (public, base64url) and its pin for clients:') + 1] as string).slice(2)) as Uint8Array;
      expect(parseKeyConfig(printed)).toEqual(config);
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encodeKeyConfig(config!) as Uint8Array<ArrayBuffer>));
      expect(out).toContain(`# sha256:${toBase64Url(digest)}`);
      expect(out.includes('NOT post-quantum')).toBe(kem === 'x25519');
    });
  }
  it('bad options are usage errors', async () => {
    for (const a of [['--kem', 'rsa'], ['--key-id', '256'], ['--bogus']]) expect((await run(['--ohttp', ...a])).rc).toBe(2);
  });
});
