import type { NextConfig } from 'next';

// Nothing here is needed for Nen: @nen/client and @nen/server (and the Wasm inside @nen/core) load
// with no bundler configuration. This file exists only to keep the demo's own settings explicit.
const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
};

export default nextConfig;
