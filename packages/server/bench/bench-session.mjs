/**
 * Shared set-up of the in-process server benches: a `createNen` on the memory store with a fixed
 * test key (never a real one), and, for the benches that seal requests by hand, one completed
 * pinned handshake (`session`: the client's result and its SessionKeys), and the 1 KB JSON echo
 * that alloc-sites.mjs and promises.mjs drive (the demo's handler, a plain one, request makers).
 * The modules are passed in, so a bench can load them from another build (`--dist`).
 */

/** createNen with the benches' options: memory store, fixed key, no log, no handshake rate limit or ceiling. */
export function benchNen({ createNen, memoryStore }, { toBase64Url }) {
  return createNen({
    backend: 'auto',
    store: memoryStore({ shared: false }),
    serverKeys: `k1:${toBase64Url(new Uint8Array(32).fill(5))}`,
    logger: () => {},
    handshakeRateLimit: 0,
    handshakesPerSecond: 0,
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

/**
 * The 1 KB JSON echo over a `benchSession`: `demo` (the demo's echo route through `withNen`: reads
 * the content type, returns the parsed body as a value), `plain` (`await request.json()`,
 * `Response.json`), and their request makers; each sealed request takes the next sequence number
 * and carries `content-length` as under `next start` (Next's Request keeps the incoming headers).
 */
export function echoBench({ formatRequestHeader, requestAad, sealMessage }, { nen, r, keys }) {
  const json = new TextEncoder().encode(JSON.stringify({ data: 'x'.repeat(1012) }));
  let seq = 1n;
  const demo = nen.withNen(async (req, _ctx, body) => (req.headers.get('content-type') === 'application/json' ? body : null));
  const plain = async (request) => Response.json(await request.json());
  const encryptedRequest = () => {
    const meta = { sessionId: r.sessionId, epoch: 0, seq: seq++, timestamp: Date.now(), flags: 0 };
    const sealed = sealMessage(keys.c2s, keys.c2sIv, meta.seq, requestAad(meta, 'POST', '/api/echo', 'application/json'), json);
    const headers = {
      nen: formatRequestHeader(meta),
      'nen-type': 'application/json',
      'content-type': 'application/nen',
      'content-length': String(sealed.length),
    };
    return new Request('http://127.0.0.1/api/echo', { method: 'POST', headers, body: sealed });
  };
  const plainRequest = () =>
    new Request('http://127.0.0.1/api/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(json.length) },
      body: json,
    });
  return { demo, plain, encryptedRequest, plainRequest };
}

/**
 * A static X-Wing server key `k1` (from `kp`, on `backend`) and 64 ClientHellos to it made
 * beforehand, unpinned and pinned (the callers cycle them: the client's work stays out of the
 * timed loop), for handshake-micro.mjs and handshake-split.mjs.
 */
export function handshakeFixture(core, backend, kp) {
  const key = backend.createRecipientKey(core.KEM_ID.XWING, kp.privateKey);
  const keys = new Map([['k1', key]]);
  const pin = core.parseServerKeyPin(core.formatServerKeyPin('k1', kp.publicKey));
  const hellos = (pinned) =>
    Array.from({ length: 64 }, () => {
      const st = core.clientHandshakeStart(backend, pinned ? { pin } : {});
      const h = st.hello;
      st.dispose();
      return h;
    });
  return { key, keys, pin, unpinned: hellos(false), pinned: hellos(true) };
}
