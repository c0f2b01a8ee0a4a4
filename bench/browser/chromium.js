/**
 * Debian Chromium (/usr/bin/chromium, installed by scripts/setup.sh; never downloaded) through
 * playwright-core, with the flags the project's browser tests use (tests/support/chromium.mjs) and a fresh profile per launch,
 * and CDP throttling for cold-load measurements (CPU slowdown, added latency per request).
 *
 * Pitfalls:
 *  - A fresh browser context per measured load is what makes it cold (no HTTP cache, no compiled
 *    code cache); throttling is per page (a CDP session each) and must be set before navigation.
 *  - Callers close the browser in `finally` (a leaked Chromium outlives the bench).
 *  - A timed page is awaited with `waitForGlobal` (CDP), never Playwright's `waitForFunction` /
 *    `evaluate` before its end: they inject Playwright's own scripts, main-thread work in the timing.
 */
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../tests/support/chromium.mjs';

export { CHROMIUM, CHROMIUM_ARGS } from '../../tests/support/chromium.mjs';

/**
 * Launches Chromium (tests/support/chromium.mjs: the path and flags every browser suite shares).
 * playwright-core's launch() starts it on a fresh temporary profile (its own --user-data-dir,
 * removed on close) and refuses a --user-data-dir argument.
 */
export async function launchChromium() {
  return chromium.launch(chromiumLaunchOptions());
}

/**
 * Resolves with the page's `globalThis[name]` once the page sets it (within `timeoutMs`), through
 * the page's own CDP session (`Runtime.evaluate`, awaitPromise): the expression installs a setter
 * on the global, so nothing polls. Not Playwright's `waitForFunction`: that injects Playwright's
 * ~330 KB InjectedScript into the page, whose compile (80-185 ms wall at 4x CPU, traced) lands on
 * the main thread while the measured request is in flight and delays reading its answer by as
 * much (issue 23: the OHTTP entry page's "unexplained V8 time after the answer").
 */
export async function waitForGlobal(p, name = 'NEN_DONE', timeoutMs = 30_000) {
  const key = JSON.stringify(name);
  const expression = `new Promise((resolve) => {
    if (globalThis[${key}] !== undefined) return resolve(globalThis[${key}]);
    let v;
    Object.defineProperty(globalThis, ${key}, { configurable: true, get: () => v, set: (x) => { v = x; resolve(x); } });
  })`;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`page did not set ${name} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const r = await Promise.race([p.cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }), timeout]);
    if (r.exceptionDetails) throw new Error(`waiting for ${name}: ${r.exceptionDetails.text}`);
    return r.result.value;
  } finally {
    clearTimeout(timer);
  }
}

/** A new page in its own fresh context (cold caches) with CPU throttling and added latency via CDP. */
export async function coldPage(browser, { cpuRate = 4, latencyMs = 50 } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: latencyMs, downloadThroughput: -1, uploadThroughput: -1 });
  return { page, cdp, close: () => context.close().catch(() => {}) };
}

/**
 * One cold load of a cold-target page (./cold-target.js: it sets NEN_DONE with its resource
 * timeline): the page's NEN_DONE plus its handshake (`/api/nen/*`) and request
 * `[path, start, end]` entries, ms from navigation. Throws when the page failed or echoed wrong.
 */
export async function coldLoad(browser, url, cpu, latency) {
  const p = await coldPage(browser, { cpuRate: cpu, latencyMs: latency });
  try {
    await p.page.goto(url, { timeout: 30_000 });
    const d = await waitForGlobal(p, 'NEN_DONE', 30_000);
    if (d.error || !d.ok) throw new Error(`cold load failed: ${d.error ?? 'wrong echo'}`);
    const hs = d.timeline.find(([u]) => u.startsWith('/api/nen/'));
    const req = d.timeline.find(([u]) => !u.startsWith('/api/nen/'));
    return { d, hs, req };
  } finally {
    await p.close();
  }
}

/**
 * Runs `loadOne(mode)` for every key of `res`, `rounds` times, pushing each result to `res[mode]`:
 * the order rotated by one each round (and reversed on odd rounds with `alternate`), so that drift
 * on the shared machine hits every mode alike. Sequential: one cold page at a time.
 */
export async function interleavedLoads(res, rounds, loadOne, { alternate = false } = {}) {
  const modes = Object.keys(res);
  for (let r = 0; r < rounds; r++) {
    const order = alternate && r % 2 ? [...modes].reverse() : modes;
    for (let i = 0; i < order.length; i++) {
      const m = order[(i + r) % order.length];
      res[m].push(await loadOne(m));
    }
  }
}
