/** Types of ./chromium.mjs (Debian's Chromium for browser tests and benchmarks). */
export declare const CHROMIUM: string;
export declare const CHROMIUM_ARGS: readonly string[];
export declare function chromiumLaunchOptions(): { executablePath: string; args: string[]; headless: true };
