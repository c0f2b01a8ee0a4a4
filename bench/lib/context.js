/**
 * The shared context every stage gets: targets, options, the keep-alive agent and plain fetch,
 * a factory for Nen clients wired to the bench transport (round-robin, wire counting, tampering),
 * the progress line, and a global request counter (memory growth is expressed per request).
 *
 * The bench imports @nen/client (the built package), never @nen/server: it sees the deployment
 * only over HTTP, like any other client.
 */
import { createFetch } from './transport.js';

let clientModule = null;

/** Load the built client once, with an actionable message if it is not built. */
export async function loadClientModule() {
  if (clientModule) return clientModule;
  try {
    clientModule = await import('@nen/client');
  } catch (err) {
    throw new Error(`bench: cannot load @nen/client (${err?.message ?? err}); build it first: pnpm turbo run build --filter @nen/client`);
  }
  if (typeof clientModule.createNenClient !== 'function') throw new Error('bench: @nen/client does not export createNenClient');
  return clientModule;
}

export function createContext({ targets, options, agent, progress, cores, serverCpu = null }) {
  let requests = 0;
  const countRequest = () => {
    requests++;
    progress?.tick();
  };
  const plainFetch = createFetch({ agent, targets });
  return {
    targets,
    base: targets[0],
    options,
    agent,
    progress,
    cores,
    plainFetch,
    countRequest,
    /** cumulative CPU ms of the local server processes, or null for remote targets */
    serverCpu,
    get requests() {
      return requests;
    },
    /**
     * A Nen client whose transport is the bench's (round-robin over targets). Extra transport
     * hooks (tamper, tamperResponse, onWire) and client options pass through.
     */
    async makeClient({ tamper, tamperResponse, onWire, stickyTarget, acceptEncoding, ...clientOptions } = {}) {
      const { createNenClient } = await loadClientModule();
      // stickyTarget: one instance only (for application state that is per instance, like the
      // demo's notes); otherwise every request goes to the next target in turn
      const useTargets = stickyTarget ? [stickyTarget] : targets;
      const fetch = createFetch({ agent, targets: useTargets, tamper, tamperResponse, onWire, acceptEncoding });
      // the KEM the run asks for (--kem; the server must hold a key of that KEM)
      const kem = options?.kem && options.kem !== 'xwing' ? { kem: options.kem } : {};
      // the bench's clients are unpinned unless a check pins (the client wants that said explicitly)
      const pin = clientOptions.serverKey === undefined && clientOptions.unpinned === undefined ? { unpinned: true } : {};
      return createNenClient({ baseUrl: useTargets[0], fetch, ...kem, ...pin, ...clientOptions });
    },
    /** A plain fetch with its own transport options (wire counting, browser-like Accept-Encoding). */
    plainFetchWith({ onWire, acceptEncoding, stickyTarget } = {}) {
      return createFetch({ agent, targets: stickyTarget ? [stickyTarget] : targets, onWire, acceptEncoding });
    },
    /** Name of the current sub-phase (memory samples are tagged stage:phase), or null. */
    phase: null,
    url(path) {
      return targets[0] + path;
    },
  };
}
