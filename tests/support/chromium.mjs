/**
 * Debian's Chromium for the repository's browser tests and benchmarks: the executable path, the
 * flags every suite launches it with, and the launch options for playwright-core's
 * `chromium.launch()` (the caller imports playwright-core itself: this module has no dependencies,
 * so @nen/core's tests, the demo's tests and the bench can all share it).
 *
 * Pitfalls:
 *  - Never a downloaded browser: /usr/bin/chromium comes from apt (scripts/setup.sh).
 *  - playwright-core starts it on a fresh temporary profile and refuses a --user-data-dir flag.
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** Options for `chromium.launch()`; throws a clear error when Chromium is not installed. */
export function chromiumLaunchOptions() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is required (apt install chromium; scripts/setup.sh installs it)`);
  return { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS], headless: true };
}
