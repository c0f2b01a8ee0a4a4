/**
 * The Oblivious HTTP page (/oblivious): @nen/client in OHTTP mode (RFC 9458, PROTOCOL.md §11) in
 * the browser, with the gateway's key config pinned the way a real app ships it: the server renders
 * the `sha256:` digest of the current config into the page, and the client only encapsulates to a
 * config fetched from /.well-known/ohttp-gateway whose digest matches it.
 *
 * Pitfall: the pin is the gateway's *current* (first) config; with per-process keys (no
 * NEN_OHTTP_KEYS) it still matches, because page and gateway run in the same process.
 */
import { createHash } from 'node:crypto';
import { connection } from 'next/server';
import { ohttpGateway } from '../../lib/ohttp';
import { ObliviousPanel } from './ObliviousPanel';

/** `sha256:` + base64url(SHA-256(first Key Config of the gateway's application/ohttp-keys list)). */
async function currentPin(): Promise<string> {
  const list = new Uint8Array(await (await ohttpGateway().GET()).arrayBuffer());
  const first = list.subarray(2, 2 + (((list[0] ?? 0) << 8) | (list[1] ?? 0)));
  return `sha256:${createHash('sha256').update(first).digest('base64url')}`;
}

export default async function ObliviousPage() {
  await connection();
  return <ObliviousPanel pin={await currentPin()} />;
}
