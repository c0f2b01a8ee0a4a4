/**
 * The browser's OHTTP client entry (src/ohttp/client-entry.ts, `@nen/core/ohttp/client`) in real
 * Chromium (Debian /usr/bin/chromium via playwright-core, never downloaded): dist's ES modules
 * and the @noble packages served unbundled from 127.0.0.1 behind an import map, a fresh browser
 * context per case, and the gateway (src, @noble / node:crypto) in this process:
 *  - with WebCrypto's KEMs and AEADs (Chromium 156), encapsulateRequestAsync fetches none of the
 *    fallback modules (ohttp/hpke.js, ohttp/encapsulation.js, @noble's AES, ChaCha20, ML-KEM,
 *    X25519): the gateway opens the request, the page opens the answer;
 *  - with the fallback forced (SubtleCrypto's encapsulateBits removed, as on Firefox / Safari), the
 *    same request goes through the dynamically imported ohttp/hpke.js on @noble and still opens
 *    both ways; a tampered answer is NEN_OHTTP_DECRYPT on either path; the page's later requests
 *    (concurrent) reuse the imported fallback (one module promise): nothing more fetched, each opens.
 * Needs the built package (dist/): `pnpm --filter @nen/core build` first (none is skipped).
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../../tests/support/chromium.mjs';
import { decapsulateRequest } from '../src/ohttp/encapsulation.js';
import { OhttpGatewayKeys, encodeKeyConfig, generateOhttpKey } from '../src/ohttp/key-config.js';
import { IMPORT_MAP, type ModuleServer, serveModules } from '../../../tests/support/browser-modules.mjs';

const PAGE = `${IMPORT_MAP}`;
/**
 * The modules a WebCrypto page must never fetch (the @noble fallbacks and what imports them).
 * Not @noble's ChaCha20: ../backend/noble-symmetric.ts (the session backend's symmetric half,
 * whose HKDF webcrypto-kem.ts uses) imports it, and a page bundling @nen/client has it anyway.
 */
const FALLBACK = /ohttp\/hpke\.js|ohttp\/encapsulation\.js|ohttp\/chunked\.js|noble-kem|ml-kem|x25519-noble|montgomery|ciphers\/aes\.js|_polyval/;

let modules: ModuleServer | undefined;
let browser: Browser | undefined;
let origin = '';

beforeAll(async () => {
  modules = await serveModules({ '': PAGE }, 'ohttp/client-entry.js');
  origin = modules.origin;
  browser = await chromium.launch(chromiumLaunchOptions());
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await modules?.close();
});

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A gateway key (id `keyId`) and its config, and a fresh context's page on the module server. */
async function freshPage(keyId: number) {
  const keys = OhttpGatewayKeys.parse(generateOhttpKey(keyId));
  const config = keys.configs()[0];
  if (!config) throw new Error('no key config');
  const ctx = await (browser as Browser).newContext();
  const p = await ctx.newPage();
  await p.goto(`${origin}/`);
  return { keys, config, ctx, p };
}

/** One request from a fresh page (fallback forced or not): what the page fetched and both directions' results. */
async function roundTrip(forceFallback: boolean): Promise<Record<string, unknown>> {
  const { keys, config, ctx, p } = await freshPage(3);
  try {
    const from = (modules as ModuleServer).served.length;
    // string bodies: the test's own transform would rewrite a function's import()
    const req = await p.evaluate<string>(`(async () => {
      if (${forceFallback}) delete SubtleCrypto.prototype.encapsulateBits;
      const c = await import('/dist/ohttp/client-entry.js');
      const cfg = c.parseKeyConfig(Uint8Array.from('${hex(encodeKeyConfig(config))}'.match(/../g), (h) => parseInt(h, 16)));
      window.__e = await c.encapsulateRequestAsync(cfg, new TextEncoder().encode('request from the page'));
      return Array.from(window.__e.encapsulatedRequest, (x) => x.toString(16).padStart(2, '0')).join('');
    })()`);
    const fetched = (modules as ModuleServer).served.slice(from).filter((u) => FALLBACK.test(u));
    const g = decapsulateRequest(keys, Buffer.from(req, 'hex'));
    const answer = g.sealResponse(new TextEncoder().encode('answer from the gateway'));
    const tampered = answer.slice();
    tampered[tampered.length - 1] = (tampered.at(-1) ?? 0) ^ 1;
    const opened = await p.evaluate<[string, string]>(`(async () => {
      const b = (h) => Uint8Array.from(h.match(/../g), (x) => parseInt(x, 16));
      const bad = await window.__e.openResponse(b('${hex(tampered)}')).then(() => 'no error', (e) => e.code ?? String(e));
      return [new TextDecoder().decode(await window.__e.openResponse(b('${hex(answer)}'))), bad];
    })()`);
    return { request: new TextDecoder().decode(g.request), answer: opened[0], tampered: opened[1], fetched };
  } finally {
    await ctx.close();
  }
}

describe("the browser's OHTTP client entry in Chromium", () => {
  it('on WebCrypto, fetches none of the @noble fallbacks; the gateway opens the request and the page the answer', async () => {
    expect(await roundTrip(false)).toEqual({ request: 'request from the page', answer: 'answer from the gateway', tampered: 'NEN_OHTTP_DECRYPT', fetched: [] });
  });

  it('with the fallback forced (no WebCrypto KEMs), loads ohttp/hpke.js and @noble on the first request; same results', async () => {
    const r = await roundTrip(true);
    expect(r).toMatchObject({ request: 'request from the page', answer: 'answer from the gateway', tampered: 'NEN_OHTTP_DECRYPT' });
    expect((r.fetched as string[]).some((u) => u.endsWith('/ohttp/hpke.js'))).toBe(true);
    expect((r.fetched as string[]).some((u) => /ml-kem/.test(u))).toBe(true);
  });

  it('with the fallback forced, the next requests of the page reuse the imported fallback: nothing fetched, each opens', async () => {
    const { keys, config, ctx, p } = await freshPage(4);
    try {
      const first = await p.evaluate<string>(`(async () => {
        delete SubtleCrypto.prototype.encapsulateBits;
        window.__c = await import('/dist/ohttp/client-entry.js');
        window.__cfg = window.__c.parseKeyConfig(Uint8Array.from('${hex(encodeKeyConfig(config))}'.match(/../g), (h) => parseInt(h, 16)));
        const e = await window.__c.encapsulateRequestAsync(window.__cfg, new TextEncoder().encode('first'));
        return Array.from(e.encapsulatedRequest, (x) => x.toString(16).padStart(2, '0')).join('');
      })()`);
      expect(new TextDecoder().decode(decapsulateRequest(keys, Buffer.from(first, 'hex')).request)).toBe('first');
      const from = (modules as ModuleServer).served.length;
      const next = await p.evaluate<string[]>(`Promise.all([1, 2, 3].map(async (i) => {
        const e = await window.__c.encapsulateRequestAsync(window.__cfg, new TextEncoder().encode('request ' + i));
        return Array.from(e.encapsulatedRequest, (x) => x.toString(16).padStart(2, '0')).join('');
      }))`);
      expect((modules as ModuleServer).served.slice(from)).toEqual([]);
      expect(next.map((h) => new TextDecoder().decode(decapsulateRequest(keys, Buffer.from(h, 'hex')).request))).toEqual([
        'request 1',
        'request 2',
        'request 3',
      ]);
    } finally {
      await ctx.close();
    }
  });
});
