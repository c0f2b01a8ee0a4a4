/**
 * Regression checks on requests (stages/regression.js): the happy paths (POST echo, GET with
 * queries as browsers send them) and every field of a request tampered by the man in the middle
 * (401), plus the wrong wire content type (415). Pitfalls: order matters only for the report;
 * each check builds its own client so one failure does not poison the next.
 */
import { randomBytes } from 'node:crypto';
import { flipByte, mutateNenField, describeError, isSessionUrl } from './util.js';

/** @param {ReturnType<import('./harness.js').makeHarness>} h */
export async function happyPathChecks(h) {
  const { ctx, check, marker, echoInit } = h;
  // ---------------------------------------------------------------- happy paths
  await check(6, 'encrypted POST echo round-trips; wire body is ciphertext', '200, same JSON back, no plaintext on the wire', async () => {
    const wires = [];
    const client = await ctx.makeClient({ onWire: (e) => wires.push(e), tamper: (req) => void wires.push({ req }) });
    await client.handshake();
    const res = await client.fetch('/api/echo', echoInit());
    const got = await res.json();
    await client.terminate().catch(() => {});
    const sent = wires.find((w) => w.req && !isSessionUrl(w.req.url))?.req;
    const leaked = sent ? Buffer.from(sent.body ?? []).includes(marker) : true;
    const ct = sent?.headers['content-type'];
    return {
      actual: `${res.status}, marker ${got?.marker === marker ? 'echoed' : 'missing'}, wire content-type ${ct}, plaintext on wire: ${leaked}`,
      pass: res.status === 200 && got?.marker === marker && !leaked && ct === 'application/nen',
    };
  });

  await check(5, 'encrypted GET with query works', '200, method GET, query x=1&y=two echoed', async () => {
    const client = await ctx.makeClient();
    const res = await client.fetch('/api/echo?x=1&y=two');
    const got = await res.json();
    await client.terminate().catch(() => {});
    return {
      actual: `${res.status}, ${JSON.stringify(got)}`,
      pass: res.status === 200 && got?.method === 'GET' && got?.query?.x === '1' && got?.query?.y === 'two',
    };
  });

  // Any query a browser or fetch() sends must authenticate, not only the form-encoded canonical
  // one (a server that rebuilds the query, e.g. with URLSearchParams, breaks on %20, ~, ! or a bare key).
  await check(5, 'encrypted GET with query strings as sent (%20, +, ~, !, bare key, %2F, UTF-8)', '200 for each, query decoded by the handler', async () => {
    const client = await ctx.makeClient();
    const cases = [
      ['q=a%20b', 'q', 'a b'],
      ['q=a+b', 'q', 'a b'],
      ['q=a~b', 'q', 'a~b'],
      ['q=a!b', 'q', 'a!b'],
      ['flag', 'flag', ''],
      ['q=a%2Fb', 'q', 'a/b'],
      ['q=caf%C3%A9', 'q', 'café'],
    ];
    const got = [];
    let pass = true;
    for (const [raw, key, want] of cases) {
      try {
        const res = await client.fetch(`/api/echo?${raw}`);
        const b = await res.json();
        got.push(`${raw}→${res.status}${res.status === 200 ? ' ' + JSON.stringify(b?.query?.[key]) : ''}`);
        pass &&= res.status === 200 && b?.query?.[key] === want;
      } catch (e) {
        got.push(`${raw}→${describeError(e)}`);
        pass = false;
      }
    }
    await client.terminate().catch(() => {});
    return { actual: got.join(', '), pass };
  });
}

/** @param {ReturnType<import('./harness.js').makeHarness>} h */
export async function tamperedRequestChecks(h) {
  const { expectStatus, echoInit } = h;
  // ---------------------------------------------------------------- tampered requests → 401
  await expectStatus(5, 'tampered request body (ciphertext byte flipped)', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => ({ ...r, body: flipByte(r.body, Math.floor(r.body.length / 3)) }),
  });
  await expectStatus(5, 'tampered tag (last body byte flipped)', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => ({ ...r, body: flipByte(r.body, r.body.length - 1) }),
  });
  await expectStatus(5, 'tampered nen header: session id', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => mutateNenField(r, 1, () => randomBytes(16).toString('base64url')),
  });
  await expectStatus(4, 'tampered nen header: epoch', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => mutateNenField(r, 2, (v) => String(Number(v) + 1)),
  });
  await expectStatus(4, 'tampered nen header: sequence number', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => mutateNenField(r, 3, (v) => String(BigInt(v) + 1n)),
  });
  await expectStatus(5, 'tampered nen header: timestamp (+1 ms)', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => mutateNenField(r, 4, (v) => String(Number(v) + 1)),
  });
  await expectStatus(5, 'tampered nen header: flags (accept-compressed bit toggled)', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => mutateNenField(r, 5, (v) => String(Number(v) ^ 8)),
  });
  await expectStatus(5, 'tampered nen-type (plaintext content type)', 401, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => ({ ...r, headers: { ...r.headers, 'nen-type': 'text/plain' } }),
  });
  await expectStatus(5, 'tampered query string', 401, {
    path: '/api/echo?x=1',
    init: undefined,
    mutate: (r) => ({ ...r, url: r.url.replace('x=1', 'x=2') }),
  });
  await expectStatus(5, 'tampered GET sealed record (nen-body header)', 401, {
    path: '/api/echo?x=1',
    init: undefined,
    mutate: (r) => {
      const v = r.headers['nen-body'];
      if (typeof v !== 'string' || v.length < 2) return r;
      const i = Math.floor(v.length / 2);
      return { ...r, headers: { ...r.headers, 'nen-body': v.slice(0, i) + (v[i] === 'A' ? 'B' : 'A') + v.slice(i + 1) } };
    },
  });
  await expectStatus(5, 'tampered path (/api/notes/<id> → another id)', 401, {
    path: '/api/notes/AAAAAAAAAAAA',
    init: undefined,
    mutate: (r) => ({ ...r, url: r.url.replace('AAAAAAAAAAAA', 'BBBBBBBBBBBB') }),
  });
  await expectStatus(5, 'tampered method (DELETE → PUT)', 401, {
    path: '/api/notes/AAAAAAAAAAAA',
    init: { method: 'DELETE' },
    mutate: (r) => ({ ...r, method: 'PUT' }),
  });
  await expectStatus(11, 'wrong wire content type (application/nen → application/json)', 415, {
    path: '/api/echo',
    init: echoInit(),
    mutate: (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'application/json' } }),
  });
}
