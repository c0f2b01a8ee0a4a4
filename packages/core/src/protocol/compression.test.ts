/**
 * ./compression.ts: the node:zlib path (Node: client and server) and the Compression Streams path
 * (browsers, Edge, workerd clients) inflate each other's output to the same bytes, keep the bound
 * (a decompression bomb stops at the limit) and give each side its code for oversize and invalid
 * input; the module reaches node:zlib only through `process.getBuiltinModule`, never on Edge.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CLIENT_INFLATE_ERRORS,
  REQUEST_DEFLATE_LEVEL,
  RESPONSE_DEFLATE_LEVEL,
  SERVER_INFLATE_ERRORS,
  compressionImplementation,
  deflateRequestBody,
  deflateResponseBody,
  inflateRequestBody,
  inflateResponseBody,
  nodeCompression,
  streamCompression,
} from './compression.js';

const node = nodeCompression!;
const web = streamCompression!;
const bytes = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
/** Bodies that compress (repeats) and that do not (random bytes). */
const arbBody = fc
  .tuple(fc.uint8Array({ maxLength: 3000 }), fc.boolean())
  .map(([d, rep]) => (rep ? Uint8Array.from({ length: d.length * 5 }, (_, i) => d[i % Math.max(1, d.length)]! & 0x0f) : d));

/** The error code a sync or async call ends with ('none' when it succeeds). */
async function codeOf(f: () => unknown): Promise<string> {
  try {
    await f();
  } catch (e) {
    return (e as { code?: string }).code ?? `uncoded ${String(e)}`;
  }
  return 'none';
}

describe('compression: implementations', () => {
  it('Node uses node:zlib through process.getBuiltinModule; the module has no node: import', () => {
    expect(compressionImplementation).toBe('node:zlib');
    expect(nodeCompression).toBeDefined();
    expect(streamCompression).toBeDefined();
    const src = readFileSync(new URL('./compression.ts', import.meta.url), 'utf8');
    expect(src).not.toMatch(/from\s+['"]node:|import\(\s*['"]node:|require\(/);
    expect(src).toContain('getBuiltinModule');
  });

  it('levels: requests 1, responses 5 (measured, see the module header)', () => {
    expect([REQUEST_DEFLATE_LEVEL, RESPONSE_DEFLATE_LEVEL]).toEqual([1, 5]);
  });

  it('node:zlib and Compression Streams inflate each other’s output to the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(arbBody, fc.constantFrom(1, 5, 6, 9), async (body, level) => {
        const fromNode = node.deflate(body, level);
        const fromWeb = await web.deflate(body, 6);
        for (const c of [fromNode, fromWeb]) {
          expect(bytes(node.inflate(c, body.length, SERVER_INFLATE_ERRORS))).toEqual(bytes(body));
          expect(bytes(await web.inflate(c, body.length, CLIENT_INFLATE_ERRORS))).toEqual(bytes(body));
        }
        // Same level, same zlib: byte-identical compressed output.
        expect(bytes(node.deflate(body, 6))).toEqual(bytes(fromWeb));
      }),
      { numRuns: 60 },
    );
  });

  it('the directional functions round-trip with their levels', async () => {
    const body = new TextEncoder().encode(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `user ${i}`, tags: ['a', 'b'] }))));
    expect(bytes(inflateRequestBody!(await deflateRequestBody!(body), body.length))).toEqual(bytes(body));
    expect(bytes(await inflateResponseBody!(deflateResponseBody!(body), body.length))).toEqual(bytes(body));
    expect(bytes(await deflateRequestBody!(body))).toEqual(bytes(node.deflate(body, REQUEST_DEFLATE_LEVEL)));
    expect(bytes(deflateResponseBody!(body))).toEqual(bytes(node.deflate(body, RESPONSE_DEFLATE_LEVEL)));
  });
});

describe('compression: bounds and codes', () => {
  const bomb = node.deflate(new Uint8Array(64 << 20), 9);
  const garbage = new Uint8Array([0xff, 0xff, 0xff, 0x00, 0x12]);
  const truncated = node.deflate(new Uint8Array(5000).fill(7), 6).subarray(0, 10);

  it('a 64 MiB bomb stops at the limit on both paths, with each side’s code', async () => {
    expect(bomb.length).toBeLessThan(100_000);
    const limit = 1 << 20;
    for (const inflate of [node.inflate, web.inflate]) {
      expect(await codeOf(() => inflate(bomb, limit, SERVER_INFLATE_ERRORS))).toBe('NEN_TOO_LARGE');
      expect(await codeOf(() => inflate(bomb, limit, CLIENT_INFLATE_ERRORS))).toBe('NEN_RESPONSE_UNAUTHENTICATED');
    }
    expect(await codeOf(() => inflateRequestBody!(bomb, limit))).toBe('NEN_TOO_LARGE');
    expect(await codeOf(() => inflateResponseBody!(bomb, limit))).toBe('NEN_RESPONSE_UNAUTHENTICATED');
    // Exactly at the limit is allowed; one byte past it is not.
    const exact = node.deflate(new Uint8Array(4096).fill(1), 6);
    for (const inflate of [node.inflate, web.inflate]) {
      expect((await inflate(exact, 4096, SERVER_INFLATE_ERRORS)).length).toBe(4096);
      expect(await codeOf(() => inflate(exact, 4095, SERVER_INFLATE_ERRORS))).toBe('NEN_TOO_LARGE');
    }
  });

  it('invalid and truncated input: NEN_MALFORMED (server), NEN_RESPONSE_UNAUTHENTICATED (client), on both paths', async () => {
    for (const bad of [garbage, truncated]) {
      for (const inflate of [node.inflate, web.inflate]) {
        expect(await codeOf(() => inflate(bad, 10_000, SERVER_INFLATE_ERRORS))).toBe('NEN_MALFORMED');
        expect(await codeOf(() => inflate(bad, 10_000, CLIENT_INFLATE_ERRORS))).toBe('NEN_RESPONSE_UNAUTHENTICATED');
      }
      expect(await codeOf(() => inflateRequestBody!(bad, 10_000))).toBe('NEN_MALFORMED');
      expect(await codeOf(() => inflateResponseBody!(bad, 10_000))).toBe('NEN_RESPONSE_UNAUTHENTICATED');
    }
  });

  it('a limit beyond what a Buffer can hold is no limit (no RangeError from node:zlib)', () => {
    const c = node.deflate(new Uint8Array(1000).fill(3), 6);
    expect(node.inflate(c, Number.MAX_SAFE_INTEGER, SERVER_INFLATE_ERRORS).length).toBe(1000);
    expect(node.inflate(c, Number.POSITIVE_INFINITY, SERVER_INFLATE_ERRORS).length).toBe(1000);
  });
});

describe('compression: runtime detection (fresh module instances)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('on Next Edge (EdgeRuntime set) `process` is never read: Compression Streams, no server functions', async () => {
    const get = vi.spyOn(process, 'getBuiltinModule');
    vi.stubGlobal('EdgeRuntime', 'edge-runtime');
    vi.resetModules();
    const m = await import('./compression.js');
    expect(get).not.toHaveBeenCalled();
    expect(m.compressionImplementation).toBe('streams');
    expect(m.deflateResponseBody).toBeUndefined();
    expect(m.inflateRequestBody).toBeUndefined();
    const body = new Uint8Array(2000).fill(5);
    expect(bytes(await m.inflateResponseBody!(await m.deflateRequestBody!(body), 2000))).toEqual(bytes(body));
  });

  it('a `process` whose Node APIs throw (as in an Edge sandbox) is survived: Compression Streams', async () => {
    vi.spyOn(process, 'getBuiltinModule').mockImplementation(() => {
      throw new Error('A Node.js API is used which is not supported in the Edge Runtime');
    });
    vi.resetModules();
    const m = await import('./compression.js');
    expect(m.compressionImplementation).toBe('streams');
  });
});
