import type { NextConfig } from 'next';

// Nothing here is needed for Nen: @nen/client and @nen/server (and the Wasm inside @nen/core) load
// with no bundler configuration. This file exists only to keep the demo's own settings explicit.
const nextConfig: NextConfig = {
  // NEXT_DIST_DIR lets a test suite build and serve its own copy (e.g. `.next-e2e`) while another
  // `next build` / `next start` uses `.next` in the same checkout.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  poweredByHeader: false,
};

export default nextConfig;
