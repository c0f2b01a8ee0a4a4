/**
 * Checks errors.vectors.json against the real @nen/server: four refusals provoked in-process
 * (GET on handshake, a wrong handshake content type, an unknown session action, a plain request
 * to a withNen route) must answer exactly the vector's status, headers and body.
 *
 * Pitfall: `allow` and `retry-after` values in the vectors are examples; only their presence is
 * compared. The message text is compared too (generic, from the catalog), so a catalog change
 * shows up here and the vectors are regenerated with it.
 */
import { createNen, memoryStore } from '@nen/server';

const CASES = [
  { code: 'NEN_METHOD_NOT_ALLOWED', route: 'session', method: 'GET', path: '/api/nen/handshake' },
  { code: 'NEN_CONTENT_TYPE', route: 'session', method: 'POST', path: '/api/nen/handshake', headers: { 'content-type': 'text/plain' }, body: 'x' },
  { code: 'NEN_NOT_FOUND', route: 'session', method: 'POST', path: '/api/nen/bogus', headers: { 'content-type': 'application/nen' }, body: 'x' },
  { code: 'NEN_NOT_ENCRYPTED', route: 'app', method: 'POST', path: '/api/echo', headers: { 'content-type': 'application/json' }, body: '{}' },
];

export async function checkServerErrors(errorsFile) {
  const nen = createNen({ store: memoryStore({ shared: false }), logger: () => {} });
  const app = nen.withNen(async () => ({ ok: true }));
  const results = [];
  try {
    for (const c of CASES) {
      const name = `server answer ${c.code}`;
      const want = errorsFile.wire.find((w) => w.code === c.code);
      const req = new Request(`http://127.0.0.1${c.path}`, { method: c.method, headers: c.headers, body: c.body });
      const ctx = { params: Promise.resolve({ action: c.path.split('/').pop() }) };
      const res = c.route === 'app' ? await app(req, ctx) : await (c.method === 'GET' ? nen.routes.GET : nen.routes.POST)(req, ctx);
      const body = await res.text();
      const diffs = [];
      if (res.status !== want.status) diffs.push(`status ${res.status}`);
      for (const [k, v] of Object.entries(want.headers)) {
        const got = res.headers.get(k);
        if (got === null || ((k === 'nen-error' || k === 'content-type' || k === 'cache-control') && got !== v)) diffs.push(`${k}: ${got}`);
      }
      if (body !== want.body) diffs.push(`body ${body}`);
      results.push({
        file: 'errors.vectors.json',
        name,
        ok: diffs.length === 0,
        ...(diffs.length ? { detail: `real server differs: ${diffs.join('; ')}` } : {}),
      });
    }
  } finally {
    await nen.close();
  }
  return results;
}
