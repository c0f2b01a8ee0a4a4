/**
 * @nen/client: drop-in `fetch` with post-quantum end-to-end payload encryption (PROTOCOL.md).
 *
 *   const res = await nenFetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
 *   for await (const chunk of nenStream('/api/stream', { method: 'POST' })) { ... }
 *
 * The plain functions use one default client: session routes at /api/nen, relative URLs resolved
 * against `location`, and the server key pinned from NEXT_PUBLIC_NEN_SERVER_KEY (what `nen keygen`
 * prints; Next.js inlines it at build time). Without that variable the default client refuses to
 * run unpinned unless told so: `defaultNenClient({ unpinned: true })`. `createNenClient(options)`
 * for other servers, several clients, or Node (`baseUrl`).
 *
 * Runtime exports (6): createNenClient, defaultNenClient, nenFetch, nenStream, handshake,
 * NenProtocolError (every client error is one, with a `code` from ERROR_CODES.md).
 *
 * Pitfall: the default client's pin is read from NEXT_PUBLIC_NEN_SERVER_KEY when the bundle is
 * built (Next.js inlines it): setting the variable at run time changes nothing in a browser page.
 */
import { createNenClient, type NenClient, type NenClientOptions, type NenSessionInfo } from './client.js';
import { NenProtocolError, clientError } from './errors.js';
import { defaultServerKey } from './options.js';

export { createNenClient } from './client.js';
export type { NenClient, NenClientOptions, NenSessionInfo, WireExchange } from './client.js';
export { NenProtocolError };

let defaultClient: NenClient | undefined;

function makeDefault(options: NenClientOptions): NenClient {
  if (options.serverKey !== undefined || options.unpinned) return createNenClient(options);
  const serverKey = defaultServerKey();
  if (!serverKey) {
    throw clientError(
      'NEN_BAD_SERVER_KEY',
      'no server key to pin: set NEXT_PUBLIC_NEN_SERVER_KEY to the pin `nen keygen` printed, or call defaultNenClient({ unpinned: true }) to run without one',
    );
  }
  return createNenClient({ ...options, serverKey });
}

/** The default client; `configure` replaces it (call before the first request). */
export function defaultNenClient(configure?: NenClientOptions): NenClient {
  if (configure) defaultClient = makeDefault(configure);
  return (defaultClient ??= makeDefault({}));
}

/** `fetch` through the default Nen client: same arguments, a standard Response with the decrypted body. */
export async function nenFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return defaultNenClient().fetch(input, init);
}

/** Explicit handshake of the default client (otherwise it happens on first use). */
export async function handshake(): Promise<NenSessionInfo> {
  return defaultNenClient().handshake();
}

/** Decrypted chunks of an encrypted streaming response (default client). */
export function nenStream(input: RequestInfo | URL, init?: RequestInit): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => defaultNenClient().stream(input, init)[Symbol.asyncIterator](),
  };
}
