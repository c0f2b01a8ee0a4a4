/**
 * The built @nen/client in OHTTP mode in real Chromium (Debian /usr/bin/chromium via
 * playwright-core, never downloaded), pinned by `sha256:` digests, across a key rotation: the
 * client's dist and @nen/core's served unbundled behind an import map from one origin (the module
 * server of tests/support/browser-modules.mjs, shared with core's browser tests), the gateway
 * (./cors-gateway.ts) on another, its key list served `public, max-age=3600` (as @nen/server's is):
 *  - before the rotation, a second client of the same page gets the list from the browser's HTTP
 *    cache (no GET reaches the gateway: the cache is in play, and a cached first fetch is fine);
 *  - the gateway retires the key and serves a new one; the page's next request is refused
 *    (NEN_OHTTP_KEY_UNKNOWN), the client refetches the list ONCE past the cache (`cache:
 *    'no-cache'`: that GET reaches the gateway), re-sends to the new key, and its handler runs once.
 *    With a refetch that goes through the cache the stale list comes back and the request fails.
 *  - no GET needed a CORS preflight (the refetch adds no request header).
 * Needs the built packages (dist/): `pnpm --filter @nen/core build`, `pnpm --filter @nen/client build`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OhttpGatewayKeys, generateOhttpKey } from '@nen/core/ohttp';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../../tests/support/chromium.mjs';
import { type ModuleServer, importMap, serveModules } from '../../../tests/support/browser-modules.mjs';
import { keyConfigPin } from '../src/ohttp/key-config.js';
import { type CorsGateway, startCorsGateway } from './cors-gateway.js';

const clientDist = join(dirname(fileURLToPath(import.meta.url)), '../dist');
const PAGE = importMap({
  '@nen/core': '/dist/index.browser.js',
  '@nen/core/ohttp/client': '/dist/ohttp/client-entry.js',
  '@nen/client': '/nen-client/index.js',
});

const oldKeys = OhttpGatewayKeys.parse(generateOhttpKey(1));
const newKeys = OhttpGatewayKeys.parse(generateOhttpKey(2));
let modules: ModuleServer | undefined;
let gateway: CorsGateway | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!existsSync(join(clientDist, 'ohttp/client.js'))) throw new Error('packages/client/dist is missing: run pnpm --filter @nen/client build');
  modules = await serveModules({ '': PAGE }, 'ohttp/client-entry.js', { 'nen-client': clientDist });
  gateway = await startCorsGateway(oldKeys);
  browser = await chromium.launch(chromiumLaunchOptions());
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await modules?.close();
});

describe('@nen/client OHTTP in Chromium: the key list refetch after a rotation', () => {
  it('revalidates past the HTTP cache once: the request after the rotation succeeds, its handler runs once', async () => {
    const g = gateway as CorsGateway;
    const pins = [await keyConfigPin(newKeys.configs()[0] as never), await keyConfigPin(oldKeys.configs()[0] as never)];
    const ctx = await (browser as Browser).newContext();
    try {
      const p = await ctx.newPage();
      await p.goto(`${(modules as ModuleServer).origin}/`);
      // string bodies: the test's own transform would rewrite a function's import()
      const post = (client: string, n: number) =>
        p.evaluate<unknown>(`(async () => {
          try {
            const res = await window.${client}.fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: ${n} }) });
            return { status: res.status, body: await res.json() };
          } catch (e) { return { error: e.code ?? String(e) }; }
        })()`);
      await p.evaluate(`(async () => {
        const { createNenClient } = await import('@nen/client');
        const make = () => createNenClient({ mode: 'ohttp', baseUrl: 'https://app.example', relay: '${g.origin}/relay', keyConfig: ${JSON.stringify(pins)}, keyConfigUrl: '${g.origin}/keys' });
        window.a = make();
        window.b = make();
      })()`);

      expect(await post('a', 1)).toEqual({ status: 200, body: { ok: { n: 1 } } });
      expect(await post('b', 2)).toEqual({ status: 200, body: { ok: { n: 2 } } });
      expect(g.wire.gets).toHaveLength(1); // b's first fetch came from the browser's cache

      g.use(newKeys); // the old key retired, the new one served
      expect(await post('a', 3)).toEqual({ status: 200, body: { ok: { n: 3 } } });
      expect(g.wire.gets).toHaveLength(2); // exactly one refetch reached the gateway
      expect(g.wire.gets[1]).toEqual({ 'cache-control': 'max-age=0' }); // the browser's revalidation (Fetch: cache mode no-cache), no validator
      expect(g.wire.posts).toBe(4); // 1, 2, 3 refused (old key), 3 again (new key)
      expect(g.runs).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(g.wire.preflights.filter((x) => !x.startsWith('POST '))).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
