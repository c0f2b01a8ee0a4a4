#!/usr/bin/env node
/**
 * `node bench/profile-summary.js FILE.cpuprofile [--top 25]`: where the CPU went in a V8 profile
 * (from `node --cpu-prof`, e.g. `next start` of the demo or run-all.js itself during a load run).
 * Self time grouped by component (@nen/core, @nen/server, @nen/client, Wasm, node:crypto, Next.js,
 * React, undici, Node internals, GC, idle) and the top functions by self time.
 *
 * Bundled code (Next's Turbopack chunks in .next/ or another NEXT_DIST_DIR such as .next-x/, whose
 * names are content hashes) is attributed
 * through the chunk's source map (`file.js.map` next to it, read with node:module's SourceMap):
 * each function's start position maps to the module it came from (@nen/server and @nen/core
 * inside the chunk of the demo's lib/nen.ts, @noble, the demo's own route code, ...). Without a map
 * the chunk counts as Next.js.
 *
 * Pitfall: sampling profiles attribute time to the innermost JS frame; time inside native code
 * called from JS (node:crypto, zlib) shows up under the calling function or "(program)".
 */
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

export function component(url, name) {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)') return 'idle';
  if (name === '(program)' || name === '(root)') return 'native/(program)';
  if (url.startsWith('wasm://') || /wasm-function/.test(name)) return 'Wasm';
  if (/packages\/core\/(dist|wasm)|\/packages_core_/.test(url)) return '@nen/core';
  // Next bundles @nen/server into the chunk of the module that imports it (the demo's lib/nen.ts)
  if (/packages\/server\/dist|\/packages_server_|_lib_nen_ts_/.test(url)) return '@nen/server';
  if (/packages\/client\/dist/.test(url)) return '@nen/client';
  if (/@noble/.test(url)) return '@noble';
  if (/next\/dist|\/\.next[^/]*\/|node_modules\/next\//.test(url)) return 'Next.js';
  // the demo's own route handlers and libraries (original sources of its bundled chunks)
  if (/(^|\/)apps\/demo\/|^\.\.\/\.\.\/\.\.\/(app|lib)\//.test(url)) return 'demo app';
  if (/react/.test(url)) return 'React';
  if (/undici/.test(url)) return 'undici';
  if (/autocannon|hdr-histogram/.test(url)) return 'autocannon';
  if (/\/bench\//.test(url)) return 'bench';
  if (url.startsWith('node:internal/crypto')) return 'node:crypto';
  if (url.startsWith('node:') || url === '') return 'Node internals';
  return 'other';
}

/** Source maps of bundled files, by URL (bounded: a profile names a few hundred files). */
function sourceMaps() {
  const maps = new Map();
  return (url) => {
    if (maps.has(url)) return maps.get(url);
    let map = null;
    if (maps.size < 1000 && url.startsWith('file://') && /\/\.next[^/]*\//.test(url)) {
      try {
        map = new SourceMap(JSON.parse(fs.readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
      } catch {
        map = null; // no map (or unreadable): the chunk counts as Next.js
      }
      maps.set(url, map);
    }
    return map;
  };
}

/** Where a function comes from: its original source and 0-based line in a bundled file (its start position through the map), else its own. */
export function originalPosition(mapOf, callFrame) {
  const url = callFrame.url ?? '';
  const own = { url, line: callFrame.lineNumber };
  const map = url ? mapOf(url) : null;
  if (!map || callFrame.lineNumber < 0) return own;
  const e = map.findEntry(callFrame.lineNumber, callFrame.columnNumber);
  return e && typeof e.originalSource === 'string' ? { url: decodeURIComponent(e.originalSource), line: e.originalLine } : own;
}

/**
 * @param {object} profile V8 .cpuprofile
 * @param {number} [top]
 * @param {{ fromUs?: number, toUs?: number }} [window] only samples whose time (profile.startTime +
 *        the running sum of timeDeltas, µs of CLOCK_MONOTONIC — the clock of process.hrtime in any
 *        process on the machine) falls in [fromUs, toUs]: the measurement window, without start-up
 */
export function summarizeProfile(profile, top = 25, window = {}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas ?? [];
  const from = window.fromUs ?? -Infinity;
  const to = window.toUs ?? Infinity;
  let t = profile.startTime ?? 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += dt[i] ?? 0;
    if (t < from || t > to) continue;
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0));
  }
  const totalUs = [...self.values()].reduce((a, b) => a + b, 0);
  const comps = new Map();
  const fns = new Map();
  const mapOf = sourceMaps();
  for (const [id, us] of self) {
    const n = byId.get(id);
    const { url, line } = originalPosition(mapOf, n.callFrame);
    const name = n.callFrame.functionName || '(anonymous)';
    const c = component(url, name);
    comps.set(c, (comps.get(c) ?? 0) + us);
    const key = `${name} ${url.replace(/^.*\/(node_modules|packages|apps)\//, '$1/')}:${line + 1}`;
    fns.set(key, { us: (fns.get(key)?.us ?? 0) + us, c });
  }
  const busyUs = totalUs - (comps.get('idle') ?? 0);
  const pct = (us, of) => Math.round((us / of) * 1000) / 10;
  return {
    totalMs: Math.round(totalUs / 1000),
    busyMs: Math.round(busyUs / 1000),
    components: [...comps]
      .sort((a, b) => b[1] - a[1])
      .map(([c, us]) => ({ component: c, ms: Math.round(us / 1000), pctOfBusy: c === 'idle' ? null : pct(us, busyUs) })),
    topFunctions: [...fns]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([f, v]) => ({ fn: f, component: v.c, ms: Math.round(v.us / 1000), pctOfBusy: pct(v.us, busyUs) })),
  };
}

const invokedDirectly = process.argv[1] && new URL(import.meta.url).pathname === fs.realpathSync(process.argv[1]);
if (invokedDirectly) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node bench/profile-summary.js FILE.cpuprofile [--top N]');
    process.exit(2);
  }
  const i = process.argv.indexOf('--top');
  const s = summarizeProfile(JSON.parse(fs.readFileSync(file, 'utf8')), i > 0 ? Number(process.argv[i + 1]) : 25);
  console.log(`total ${s.totalMs} ms sampled, busy ${s.busyMs} ms`);
  for (const c of s.components) console.log(`  ${c.component.padEnd(18)} ${String(c.ms).padStart(7)} ms ${c.pctOfBusy === null ? '' : c.pctOfBusy + ' %'}`);
  console.log('top functions by self time:');
  for (const f of s.topFunctions) console.log(`  ${String(f.ms).padStart(6)} ms ${String(f.pctOfBusy).padStart(5)} %  [${f.component}] ${f.fn}`);
}
