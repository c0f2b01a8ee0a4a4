/**
 * Debian Chromium (/usr/bin/chromium, installed by scripts/setup.sh; never downloaded) through
 * playwright-core, with the flags the project's browser tests use (tests/support/chromium.mjs) and a fresh profile per launch,
 * and CDP throttling for cold-load measurements (CPU slowdown, added latency per request).
 *
 * Pitfalls:
 *  - A fresh browser context per measured load is what makes it cold (no HTTP cache, no compiled
 *    code cache); throttling is per page (a CDP session each) and must be set before navigation.
 *  - Callers close the browser in `finally` (a leaked Chromium outlives the bench).
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
