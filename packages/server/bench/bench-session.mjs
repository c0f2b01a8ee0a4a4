/**
 * Shared set-up of the in-process server benches: a `createNen` on the memory store with a fixed
 * test key (never a real one), and, for the benches that seal requests by hand, one completed
 * pinned handshake (`session`: the client's result and its SessionKeys).
 * The modules are passed in, so a bench can load them from another build (`--dist`).
 */

/** createNen with the benches' options: memory store, fixed key, no log, no handshake rate limit. */
export function benchNen({ createNen, memoryStore }, { toBase64Url }) {
  return createNen({
    backend: 'auto',
    store: memoryStore({ shared: false }),
    serverKeys: `k1:${toBase64Url(new Uint8Array(32).fill(5))}`,
    logger: () => {},
    handshakeRateLimit: 0,
  });
}

/** `benchNen` plus one pinned handshake through its route: { backend, nen, pin, r, keys }. */
export async function benchSession(server, core) {
  const { SessionKeys, clientHandshakeStart, loadBackend, parseServerKeyPin } = core;
  const backend = await loadBackend('auto');
  const nen = benchNen(server, core);
  const pin = parseServerKeyPin((await nen.publicKeys())[0].pin);
  const c = clientHandshakeStart(backend, { pin });
  const hs = await nen.routes.POST(
    new Request('http://127.0.0.1/api/nen/handshake', { method: 'POST', headers: { 'content-type': 'application/nen-handshake' }, body: c.hello }),
  );
  const r = c.finish(new Uint8Array(await hs.arrayBuffer()));
  return { backend, nen, pin, r, keys: new SessionKeys(backend, r.secret, 0) };
}
