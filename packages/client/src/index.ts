/**
 * @nen/client: drop-in `fetch` with post-quantum end-to-end payload encryption (PROTOCOL.md).
 *
 *   const res = await nenFetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
 *   for await (const chunk of nenStream('/api/stream', { method: 'POST' })) { ... }
 *
 * The plain functions use one default client (session routes at /api/nen, no pin, relative URLs
 * resolved against `location`); `createNenClient(options)` for pins, other servers or Node.
 */
import { createNenClient, type NenClient, type NenClientOptions, type NenSessionInfo } from './client.js';

export { createNenClient } from './client.js';
export type { NenClient, NenClientOptions, NenSessionInfo, WireExchange } from './client.js';
export { NenError, NenProtocolError, WIRE_ERRORS, CLIENT_ERRORS } from '@nen/core';

let defaultClient: NenClient | undefined;

/** The default client; `configure` replaces it (call before the first request). */
export function defaultNenClient(configure?: NenClientOptions): NenClient {
  if (configure) defaultClient = createNenClient(configure);
  return (defaultClient ??= createNenClient());
}

/** `fetch` through the default Nen client: same arguments, a standard Response with the decrypted body. */
export function nenFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return defaultNenClient().fetch(input, init);
}

/** Explicit handshake of the default client (otherwise it happens on first use). */
export function handshake(): Promise<NenSessionInfo> {
  return defaultNenClient().handshake();
}

/** Decrypted chunks of an encrypted streaming response (default client). */
export function nenStream(input: RequestInfo | URL, init?: RequestInit): AsyncIterable<Uint8Array> {
  return defaultNenClient().stream(input, init);
}
