/**
 * Regression checks on responses, streams and limits (stages/regression.js): tampered, substituted
 * and plaintext responses, truncated / reordered / duplicated stream records, oversize and
 * malformed requests. Pitfalls: a stream tamper must rewrite whole records (splitRecords) or cut
 * inside one; the client must reject either way, never deliver a silently shortened stream.
 */
import { randomBytes } from 'node:crypto';
import { concatBytes, flipByte, describeError, splitRecords, isSessionUrl } from './util.js';

/** @param {ReturnType<import('./harness.js').makeHarness>} h */
export async function responseChecks(h) {
  const { ctx, check, tamperResponse, json, echoInit } = h;
  // ---------------------------------------------------------------- responses
  await check(6, 'tampered response body', 'client rejects', async () => {
    const r = await tamperResponse({
      path: '/api/echo',
      init: echoInit(),
      replace: async (_req, res) => new Response(flipByte(new Uint8Array(await res.arrayBuffer()), 3), { status: res.status, headers: res.headers }),
    });
    return { actual: r.outcome, pass: r.rejected };
  });
  await check(6, 'tampered response status (200 → 201)', 'client rejects', async () => {
    const r = await tamperResponse({
      path: '/api/echo',
      init: echoInit(),
      replace: async (_req, res) => new Response(await res.arrayBuffer(), { status: 201, headers: res.headers }),
    });
    return { actual: r.outcome, pass: r.rejected };
  });
  await check(6, 'response substitution (an earlier response of the same session)', 'client rejects', async () => {
    let saved = null;
    let n = 0;
    const client = await ctx.makeClient({
      tamperResponse: async (req, res) => {
        if (isSessionUrl(req.url)) return undefined;
        n++;
        if (n === 1) {
          saved = { body: new Uint8Array(await res.arrayBuffer()), status: res.status, headers: res.headers };
          return new Response(saved.body, { status: saved.status, headers: saved.headers });
        }
        if (n === 2 && saved) {
          await res.arrayBuffer();
          return new Response(saved.body, { status: saved.status, headers: saved.headers });
        }
        return undefined;
      },
    });
    await client.handshake();
    const first = await client.fetch('/api/echo', echoInit());
    await first.arrayBuffer();
    let outcome;
    let rejected = false;
    try {
      const res = await client.fetch('/api/echo', { method: 'POST', headers: json, body: JSON.stringify({ other: true }) });
      outcome = `application got ${res.status}: ${(await res.text()).slice(0, 60)}`;
    } catch (e) {
      rejected = true;
      outcome = `client threw ${describeError(e)}`;
    }
    await client.terminate().catch(() => {});
    return { actual: outcome, pass: rejected && first.status === 200 };
  });
  await check(6, 'plaintext response substituted for an encrypted one', 'client rejects', async () => {
    const r = await tamperResponse({
      path: '/api/echo',
      init: echoInit(),
      replace: async (_req, res) => {
        await res.arrayBuffer();
        return Response.json({ marker: 'forged' }, { status: 200 });
      },
    });
    return { actual: r.outcome, pass: r.rejected };
  });
}

/** @param {ReturnType<import('./harness.js').makeHarness>} h */
export async function streamChecks(h) {
  const { ctx, check, tamperResponse, json } = h;
  // ---------------------------------------------------------------- streams
  const readStream = async (res) => {
    const text = await res.text();
    return text;
  };
  await check(9, 'encrypted stream delivers every record', '21 events ending in [DONE]', async () => {
    const client = await ctx.makeClient();
    const res = await client.fetch('/api/stream?n=20', { method: 'POST', headers: json, body: '{}' });
    const text = await readStream(res);
    await client.terminate().catch(() => {});
    const events = text.split('\n\n').filter(Boolean);
    return {
      actual: `${res.status}, ${events.length} events, last ${JSON.stringify(events.at(-1))}`,
      pass: res.status === 200 && events.length === 21 && events.at(-1) === 'data: [DONE]',
    };
  });
  const streamTamper = (name, edit) =>
    check(9, name, 'client rejects', async () => {
      let info = '';
      const r = await tamperResponse({
        path: '/api/stream?n=20',
        init: { method: 'POST', headers: json, body: '{}' },
        consume: (res) => res.arrayBuffer(),
        replace: async (_req, res) => {
          const bytes = new Uint8Array(await res.arrayBuffer());
          const { records, rest } = splitRecords(bytes);
          info = `${records.length} records, ${rest} stray bytes`;
          return new Response(edit(records, bytes), { status: res.status, headers: res.headers });
        },
      });
      return { actual: `${r.outcome} (${info})`, pass: r.rejected };
    });
  await streamTamper('truncated stream (final record dropped)', (recs) => concatBytes(...recs.slice(0, -1)));
  await streamTamper('truncated stream (cut inside a record)', (_r, bytes) => bytes.subarray(0, Math.floor(bytes.length / 2)));
  await streamTamper('reordered stream records', (recs) => concatBytes(recs[1], recs[0], ...recs.slice(2)));
  await streamTamper('duplicated stream record', (recs) => concatBytes(recs[0], ...recs));
}

/** @param {ReturnType<import('./harness.js').makeHarness>} h */
export async function limitChecks(h) {
  const { ctx, check, rawSend, fmt, holdingClient, json, echoInit } = h;

  // ---------------------------------------------------------------- limits and malformed input
  await check(12, 'oversize request body (16 MiB)', '413', async () => {
    const h = await holdingClient();
    await h.client.handshake();
    const req = await h.capture('/api/echo', echoInit());
    const big = new Uint8Array(16 * 1024 * 1024);
    const r = await rawSend({ ...req, body: big, headers: { ...req.headers, 'content-length': String(big.length) } });
    await h.client.terminate().catch(() => {});
    return { actual: fmt(r), pass: r.status === 413 };
  });
  await check(11, 'malformed nen header (5 fields)', '400', async () => {
    const h = await holdingClient();
    await h.client.handshake();
    const req = await h.capture('/api/echo', echoInit());
    const r = await rawSend({ ...req, headers: { ...req.headers, nen: String(req.headers.nen).split('.').slice(0, 5).join('.') } });
    await h.client.terminate().catch(() => {});
    return { actual: fmt(r), pass: r.status === 400 };
  });
  await check(11, 'unsupported protocol version in nen header', '400', async () => {
    const h = await holdingClient();
    await h.client.handshake();
    const req = await h.capture('/api/echo', echoInit());
    const r = await rawSend({ ...req, headers: { ...req.headers, nen: String(req.headers.nen).replace(/^1\./, '9.') } });
    await h.client.terminate().catch(() => {});
    return { actual: fmt(r), pass: r.status === 400 };
  });
  await check(11, 'plaintext request to an encrypted route', '400', async () => {
    const r = await rawSend({ method: 'POST', url: ctx.url('/api/echo'), headers: json, body: JSON.stringify({ hello: 'plain' }) });
    return { actual: fmt(r), pass: r.status === 400 };
  });
  await check(11, 'garbage handshake body', '400', async () => {
    const r = await rawSend({
      method: 'POST',
      url: ctx.url('/api/nen/handshake'),
      headers: { 'content-type': 'application/nen-handshake' },
      body: randomBytes(57),
    });
    return { actual: fmt(r), pass: r.status === 400 };
  });
}
