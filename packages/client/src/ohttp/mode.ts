/**
 * `createNenClient({ mode: 'ohttp', relay, keyConfig })`: the eager part of the OHTTP mode, kept
 * tiny (it is in every page's bundle): it checks the options and imports ./client.ts (the codec,
 * Binary HTTP, HPKE setup) on the first request, so a session-mode page never loads it. An app
 * that picks OHTTP for a page imports `@nen/client/ohttp` (./index.ts) instead: no lazy chunk.
 *
 * Pitfall: the key config itself is parsed or fetched on first use: its errors surface from the
 * first request, not from createNenClient.
 */
import type { NenClient } from '../client.js';
import { clientError } from '../errors.js';
import type { ClientConfig } from '../options.js';

/** NEN_BAD_INPUT unless the options carry `relay` and `keyConfig` (shared with ./index.ts). */
export function requireOhttpOptions(cfg: ClientConfig): void {
  const o = cfg.options;
  if (o.relay === undefined || o.keyConfig === undefined) throw clientError('NEN_BAD_INPUT', "mode: 'ohttp' needs relay and keyConfig");
}

/** ./client.ts, imported once per page / process (a fresh client does not go through the module loader again). */
let code: Promise<typeof import('./client.js')> | undefined;
function clientCode(): Promise<typeof import('./client.js')> {
  code ??= import('./client.js').catch((e: unknown) => {
    code = undefined; // a failed chunk load is retried by the next request
    throw e;
  });
  return code;
}

export function obliviousClient(cfg: ClientConfig): NenClient {
  requireOhttpOptions(cfg);
  let client: Promise<NenClient> | undefined;
  const load = () =>
    (client ??= clientCode().then(
      (m) => m.obliviousNenClient(cfg),
      (e: unknown) => {
        client = undefined;
        throw e;
      },
    ));
  return {
    fetch: async (input, init) => (await load()).fetch(input, init),
    stream: (input, init) => ({
      async *[Symbol.asyncIterator]() {
        yield* (await load()).stream(input, init);
      },
    }),
    handshake: async () => (await load()).handshake(),
    rotate: async () => (await load()).rotate(),
    terminate: async () => (await load()).terminate(),
    status: async () => (await load()).status(),
    session: null,
  };
}
