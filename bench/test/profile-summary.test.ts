/**
 * profile-summary.js on a fabricated V8 CPU profile: self time grouped by component and the
 * hottest functions ranked, samples kept to a time window, and profile-requests' cost table (each
 * group's share of the busy samples applied to the /proc CPU per request).
 * Pitfall: components are recognised by the frame's URL path (dist, node_modules, .next chunks),
 * so the fixtures use real-looking paths.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { summarizeProfile, component } from '../profile-summary.js';

describe('profile-summary', () => {
  it('groups self time by component and ranks functions', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0, columnNumber: 0, scriptId: '0' });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 3, 4, 5] },
        { id: 2, callFrame: frame('sealMessage', 'file:///r/packages/core/dist/protocol/message.js') },
        { id: 3, callFrame: frame('handleRequestImpl', 'file:///r/node_modules/next/dist/server/base-server.js') },
        { id: 4, callFrame: frame('(idle)', '') },
        { id: 5, callFrame: frame('(garbage collector)', '') },
      ],
      samples: [2, 2, 3, 4, 4, 4, 5, 2],
      timeDeltas: [1000, 1000, 2000, 5000, 5000, 5000, 1000, 1000],
    };
    const s = summarizeProfile(profile, 3);
    expect(s.totalMs).toBe(21);
    expect(s.busyMs).toBe(6);
    expect(s.components.find((c: { component: string }) => c.component === '@nen/core')).toEqual({ component: '@nen/core', ms: 3, pctOfBusy: 50 });
    expect(s.topFunctions[0].fn).toMatch(/^\(idle\)/);
    expect(s.topFunctions[1]).toMatchObject({ component: '@nen/core', ms: 3 });
    expect(component('file:///x/.next/server/chunks/apps_demo_lib_nen_ts_0i4._.js', 'f')).toBe('@nen/server');
    expect(component('wasm://wasm/abc', 'f')).toBe('Wasm');
    expect(component('node:net', 'f')).toBe('Node internals');
    expect(component('node:internal/crypto/cipher', 'update')).toBe('node:crypto');
  });
  it('maps a chunk of any build directory (.next, NEXT_DIST_DIR=.next-x) through its source map', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nen-profile-'));
    try {
      const map = { version: 3, sources: ['../../../app/api/echo/route.ts'], names: [], mappings: 'AAAA' };
      const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0, columnNumber: 0, scriptId: '0' });
      const nodes: { id: number; callFrame: ReturnType<typeof frame> }[] = [{ id: 1, callFrame: frame('(root)', '') }];
      for (const [i, distDir] of ['.next', '.next-x'].entries()) {
        const chunk = join(dir, distDir, 'server/chunks/app_0a1._.js');
        mkdirSync(dirname(chunk), { recursive: true });
        writeFileSync(chunk, 'function POST(){}\n');
        writeFileSync(`${chunk}.map`, JSON.stringify(map));
        nodes.push({ id: 2 + i, callFrame: frame('POST', pathToFileURL(chunk).href) });
      }
      const s = summarizeProfile({ startTime: 0, nodes, samples: [2, 3], timeDeltas: [1000, 1000] }, 2);
      expect(s.components).toEqual([{ component: 'demo app', ms: 2, pctOfBusy: 100 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('keeps only the samples inside a time window (µs, same clock as profile.startTime)', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0, columnNumber: 0, scriptId: '0' });
    const profile = {
      startTime: 1_000_000,
      nodes: [
        { id: 1, callFrame: frame('(root)', '') },
        { id: 2, callFrame: frame('boot', 'node:internal/x') },
        { id: 3, callFrame: frame('seal', 'file:///r/packages/core/dist/a.js') },
      ],
      samples: [2, 2, 3, 3, 2],
      timeDeltas: [1000, 1000, 1000, 1000, 1000], // sample times 1.001 s … 1.005 s
    };
    const s = summarizeProfile(profile, 5, { fromUs: 1_002_500, toUs: 1_004_500 });
    expect(s.totalMs).toBe(2);
    expect(s.components).toEqual([{ component: '@nen/core', ms: 2, pctOfBusy: 100 }]);
  });
});

describe('profile-requests cost table', () => {
  it('applies each group share of the busy samples to the /proc CPU per request', async () => {
    const { perRequestGroups, costTable } = await import('../profile-requests.js');
    const summary = {
      busyMs: 100,
      components: [
        { component: 'Wasm', ms: 10 },
        { component: '@nen/server', ms: 20 },
        { component: 'Next.js', ms: 50 },
        { component: 'GC', ms: 20 },
        { component: 'idle', ms: 900 },
      ],
    };
    const g = perRequestGroups(summary, 1000, 500);
    expect(g).toEqual({ crypto: 50, envelope: 100, 'Next.js': 250, Node: 0, GC: 100, sampled: 100 });
    expect(perRequestGroups(summary, 1000, null).crypto).toBe(10); // no /proc figure: sampled time
    const t = costTable([
      { mode: 'plain', perRequestUs: { ...g, crypto: 0 }, procCpuUsPerRequest: 450 },
      { mode: 'encrypted', perRequestUs: g, procCpuUsPerRequest: 500 },
    ]);
    expect(t).toContain('| crypto | 0 | 50 | +50 |');
    expect(t).toContain('| total (/proc utime+stime) | 450 | 500 | +50 |');
  });
});
