/**
 * The misbehaviours of the fault server: each takes the real @nen/server answer (a Web Response)
 * to an application request and returns what goes on the wire instead. `state` is the scenario's
 * (stash of an earlier answer, answers so far).
 *
 * Pitfalls: bodies are read whole here (answers are small, streams finite), so a stream fault
 * changes the framing of the complete record sequence; stalls answer with a marker the server
 * turns into a held-open socket (bounded: it gives up after 10 s).
 */
export const STALL_HEAD = Symbol('stall-head');
/** The oversized answers' length: 64 MiB. */
const OVERSIZED = 64 * 1024 * 1024;

const plainError = (status, code, message) =>
  new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'nen-error': code, 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

/** Splits a record stream body into its framed records (u32 length || sealed). */
function records(body) {
  const out = [];
  for (let i = 0; i + 4 <= body.length; ) {
    const n = new DataView(body.buffer, body.byteOffset + i, 4).getUint32(0);
    out.push(body.subarray(i, i + 4 + n));
    i += 4 + n;
  }
  return out;
}

async function rebuild(res, body) {
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** A body of `n` zero bytes, in 64 KiB chunks, counted in `state.bodyBytesSent` as pulled. */
function zeros(n, state) {
  let sent = 0;
  return new ReadableStream({
    pull(c) {
      if (sent >= n) return c.close();
      const k = Math.min(65536, n - sent);
      sent += k;
      state.bodyBytesSent += k;
      c.enqueue(new Uint8Array(k));
    },
  });
}

const streamFaults = {
  'stream-truncate': (r) => r.slice(0, -1),
  'stream-reorder': (r) => [r[1], r[0], ...r.slice(2)],
  'stream-duplicate': (r) => [r[0], r[1], r[1], ...r.slice(2)],
};

/** Applies `fault` to the answer of an application route. Returns a Response or STALL_HEAD. */
export async function applyFault(fault, res, state) {
  state.answers += 1;
  if (fault in streamFaults) {
    const recs = records(new Uint8Array(await res.arrayBuffer()));
    return rebuild(res, Buffer.concat(streamFaults[fault](recs)));
  }
  switch (fault) {
    case 'tamper-body': {
      const b = new Uint8Array(await res.arrayBuffer());
      b[b.length - 1] ^= 0x01;
      return rebuild(res, b);
    }
    case 'tamper-header': {
      const h = new Headers(res.headers);
      h.set('nen-type', 'text/html');
      return new Response(await res.arrayBuffer(), { status: res.status, headers: h });
    }
    case 'tamper-status':
      return new Response(await res.arrayBuffer(), { status: res.status === 200 ? 203 : 200, headers: res.headers });
    case 'swap': {
      const body = await res.arrayBuffer();
      if (!state.stash) {
        state.stash = { body, status: res.status, headers: new Headers(res.headers) };
        return new Response(body, { status: res.status, headers: res.headers });
      }
      return new Response(state.stash.body, { status: state.stash.status, headers: state.stash.headers });
    }
    case 'forge-401-once':
      if (state.answers > 1) return res;
      await res.arrayBuffer();
      return plainError(401, 'NEN_SESSION_UNKNOWN', 'nen: unknown session');
    case 'forge-401-always':
      await res.arrayBuffer();
      return plainError(401, 'NEN_SESSION_UNKNOWN', 'nen: unknown session');
    case 'forge-500':
      await res.arrayBuffer();
      return plainError(500, 'NEN_INTERNAL', 'nen: internal error');
    case 'forge-502':
      await res.arrayBuffer();
      return new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'content-type': 'text/html' } });
    case 'downgrade':
      await res.arrayBuffer();
      return new Response(JSON.stringify({ method: 'POST', query: '', body: 'hello' }), { status: 200, headers: { 'content-type': 'application/json' } });
    case 'oversized': {
      await res.arrayBuffer();
      const n = OVERSIZED;
      return new Response(zeros(n, state), {
        status: 200,
        headers: { nen: '1.0', 'content-type': 'application/nen', 'nen-type': 'text/plain', 'content-length': String(n) },
      });
    }
    case 'oversized-chunked':
      await res.arrayBuffer();
      return new Response(zeros(OVERSIZED, state), { status: 200, headers: { nen: '1.0', 'content-type': 'application/nen', 'nen-type': 'text/plain' } });
    case 'stall-body': {
      await res.arrayBuffer();
      const h = new Headers(res.headers);
      h.delete('content-length');
      return new Response(new ReadableStream({ pull: () => new Promise(() => {}) }), { status: 200, headers: h });
    }
    case 'stall-head':
      await res.arrayBuffer();
      return STALL_HEAD;
    default:
      return res;
  }
}

/** Applies a request-side fault before @nen/server sees the request (only tamper-request-once). */
export async function requestFault(fault, request, state) {
  state.requests += 1;
  if (fault !== 'tamper-request-once' || state.requests > 1 || request.method === 'GET' || request.method === 'HEAD') return request;
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.length) body[body.length - 1] ^= 0x01;
  return new Request(request.url, { method: request.method, headers: request.headers, body });
}

/** Applies a fault to a session route answer (only the handshake is ever changed). */
export async function applySessionFault(fault, action, res) {
  if (fault === 'downgrade-handshake' && action === 'handshake') {
    await res.arrayBuffer();
    return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'content-type': 'application/json' } });
  }
  return res;
}
