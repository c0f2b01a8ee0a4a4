/**
 * `@nen/client/ohttp`: the Oblivious HTTP mode (RFC 9458) as its own entry, for apps that choose
 * OHTTP for a page. `createOhttpClient(options)` is `createNenClient({ ...options, mode: 'ohttp' })`
 * with the OHTTP code (Binary HTTP, HPKE setup, the codec of @nen/core/ohttp/client) imported statically,
 * so the app's bundler puts it in the page's own chunk and the first request waits for no lazy
 * chunk (one round trip saved on a cold page, issue 23). `createNenClient` from `@nen/client`
 * keeps the lazy import: session-mode pages never carry this code.
 *
 * Pitfall: importing this entry in a session-mode page adds the OHTTP weight to it (see
 * bench/browser/size.js); the key config is still parsed or fetched on the first request, so its
 * errors surface there, not here.
 */
import type { NenClient } from '../client.js';
import { type NenClientOptions, resolveConfig } from '../options.js';
import { obliviousNenClient } from './client.js';
import { requireOhttpOptions } from './mode.js';

/** Options of `createOhttpClient`: those of `createNenClient` in OHTTP mode (`relay` and `keyConfig` required). */
export type OhttpClientOptions = Omit<NenClientOptions, 'mode'>;

/** The NenClient of OHTTP mode, with its code loaded with the page (no lazy chunk on the first request). */
export function createOhttpClient(options: OhttpClientOptions): NenClient {
  const cfg = resolveConfig({ ...options, mode: 'ohttp' });
  requireOhttpOptions(cfg);
  return obliviousNenClient(cfg);
}
