/**
 * The demo's Next.js configuration. No bundler configuration is needed for Nen: @nen/client and
 * @nen/server (and the Wasm inside @nen/core) load as they are.
 * Pitfall: the rewrites refuse an over-limit declared length on the Edge routes at once (Next
 * holds an Edge route's answer until the request body ends: lib/edge-body-limit.ts).
 */
import type { NextConfig } from 'next';
import { edgeBodyLimitRewrites } from './lib/edge-body-limit';

const nextConfig: NextConfig = {
  // NEXT_DIST_DIR lets a test suite build and serve its own copy (e.g. `.next-e2e`) while another
  // `next build` / `next start` uses `.next` in the same checkout.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  poweredByHeader: false,
  async rewrites() {
    return { beforeFiles: edgeBodyLimitRewrites(), afterFiles: [], fallback: [] };
  },
};

export default nextConfig;
