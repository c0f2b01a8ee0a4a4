/**
 * `nen keygen` (bin of @nen/server, built to dist/cli.js): prints an env line the server accepts
 * and a pin with which a client authenticates that server, plus a fresh NEN_STORE_KEY; key parsing
 * rejects bad input.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createNenClient } from '@nen/client';
import { createNen, memoryStore, parseServerKeys } from '../src/index.js';
import { serve } from './http-harness.js';

const cli = join(dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

describe('nen keygen', () => {
  it('prints NEN_SERVER_KEYS and a working client pin (X-Wing and ML-KEM-768)', async () => {
    expect(existsSync(cli), 'run `pnpm --filter @nen/server build` first (dist/cli.js)').toBe(true);
    for (const kem of ['xwing', 'mlkem768']) {
      const out = execFileSync(process.execPath, [cli, 'keygen', '--kem', kem, '--kid', `t-${kem}`], { encoding: 'utf8' });
      const env = /^NEN_SERVER_KEYS=(.+)$/m.exec(out)![1]!;
      const pin = /^NEN_SERVER_PIN=(.+)$/m.exec(out)![1]!;
      const nen = createNen({ serverKeys: `old:${'A'.repeat(43)},${env}`, store: memoryStore({ shared: false }), backend: 'noble', logger: () => {} });
      const server = await serve({ '/api/nen/*': nen.routes, '/api/x': { POST: nen.withNen(async () => ({ ok: kem })) } });
      try {
        const client = createNenClient({ baseUrl: server.url, serverKey: pin, backend: 'noble' });
        expect(await (await client.fetch('/api/x', { method: 'POST' })).json()).toEqual({ ok: kem });
        expect(client.session?.keyId).toBe(`t-${kem}`);
      } finally {
        await server.close();
        await nen.close();
      }
    }
    // A fresh NEN_STORE_KEY for Redis deployments: 32 random bytes, base64url, new on every run.
    const storeKeys = [0, 1].map(() => /^NEN_STORE_KEY=([A-Za-z0-9_-]+)$/m.exec(execFileSync(process.execPath, [cli, 'keygen'], { encoding: 'utf8' }))![1]!);
    for (const k of storeKeys) expect(Buffer.from(k, 'base64url').length).toBe(32);
    expect(storeKeys[0]).not.toBe(storeKeys[1]);
    expect(() => execFileSync(process.execPath, [cli, 'keygen', '--kem', 'rsa'], { stdio: 'pipe' })).toThrow();
  });

  it('NEN_SERVER_KEYS parsing: both formats, strict', () => {
    const x = 'A'.repeat(43);
    expect(parseServerKeys(`a:${x},b:${'A'.repeat(86)}`).map((k) => [k.kid, k.kem])).toEqual([['a', 0x647a], ['b', 0x41]]);
    expect(parseServerKeys(JSON.stringify({ j: x }))[0]!.kid).toBe('j');
    for (const bad of ['', 'nocolon', `a:${x},a:${x}`, 'a:AAAA', `bad id:${x}`, '{"a":1}', '{oops']) {
      expect(() => parseServerKeys(bad), bad).toThrow(expect.objectContaining({ code: 'NEN_CONFIG' }));
    }
  });
});
