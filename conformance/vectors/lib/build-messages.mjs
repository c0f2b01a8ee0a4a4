/**
 * Builds messages.vectors.json: sealed request and response records (PROTOCOL.md §5, §5.2, §5.4,
 * §7.1) under the sessions of handshake.vectors.json, with the `nen` headers, canonical AAD
 * target, AAD, nonce and sealed bytes, plus responses a client must reject.
 *
 * Pitfalls: ChaCha20-Poly1305 is deterministic, so `sealed` is reproducible from the inputs; the
 * compressed bodies are not (DEFLATE output differs per library): check those by opening and
 * inflating. A retry (flag 0x10) is sealed in a *new* session and names the original.
 */
import { PROVENANCE, hex, utf8 } from './util.mjs';

const TS0 = 1767225601000;
const REQ = { COMPRESSED: 1, CONFIDENTIAL_QUERY: 2, STREAM: 4, ACCEPT_COMPRESSED: 8, RETRY: 16 };

const REQUESTS = [
  {
    name: 'post-json-query',
    session: 'xwing-pinned',
    epoch: 0,
    seq: 1,
    method: 'POST',
    target: '/api/echo?b=2&a=%7e',
    type: 'application/json',
    body: '{"title":"hello"}',
  },
  { name: 'get-no-body', session: 'xwing-pinned', epoch: 0, seq: 2, method: 'GET', target: '/api/items?q=a%20b', type: '', body: null },
  { name: 'delete-empty', session: 'xwing-pinned', epoch: 0, seq: 3, method: 'DELETE', target: '/api/items/1', type: '', body: null },
  { name: 'put-epoch-1', session: 'xwing-pinned', epoch: 1, seq: 4, method: 'PUT', target: '/api/items/1', type: 'text/plain;charset=utf-8', body: 'épée' },
  {
    name: 'confidential-query',
    session: 'xwing-pinned',
    epoch: 1,
    seq: 5,
    method: 'GET',
    target: '/api/search?q=a%20b&tag=~x',
    type: '',
    body: null,
    flags: REQ.CONFIDENTIAL_QUERY,
  },
  { name: 'head', session: 'xwing-pinned', epoch: 1, seq: 6, method: 'HEAD', target: '/api/items', type: '', body: null },
  {
    name: 'compressed',
    session: 'mlkem768-pinned',
    epoch: 0,
    seq: 1,
    method: 'PATCH',
    target: '/api/items/2',
    type: 'application/json',
    body: JSON.stringify({ text: 'x'.repeat(200) }),
    flags: REQ.COMPRESSED | REQ.ACCEPT_COMPRESSED,
  },
  {
    name: 'retry',
    session: 'xwing-unpinned',
    epoch: 0,
    seq: 1,
    method: 'POST',
    target: '/api/echo?b=2&a=%7e',
    type: 'application/json',
    body: '{"title":"hello"}',
    flags: REQ.RETRY,
    retryOf: { session: 'xwing-pinned', epoch: 0, seq: 1, ts: TS0 + 1000 },
  },
  { name: 'options', session: 'mlkem768-unpinned', epoch: 0, seq: 1, method: 'OPTIONS', target: '/api/items', type: '', body: null },
];

const RESPONSES = [
  { name: 'created-json', to: 'post-json-query', status: 201, type: 'application/json', body: '{"id":1}' },
  { name: 'ok-get', to: 'get-no-body', status: 200, type: 'application/json', body: '{"items":[]}' },
  { name: 'no-content', to: 'delete-empty', status: 204, type: '', body: '' },
  { name: 'head-ok', to: 'head', status: 200, type: 'application/json', body: '' },
  { name: 'handler-404', to: 'put-epoch-1', status: 404, type: 'application/json', body: '{"error":"not found"}' },
  { name: 'compressed', to: 'compressed', status: 200, type: 'application/json', body: JSON.stringify({ text: 'y'.repeat(300) }), flags: 1 },
  {
    name: 'retry-committed',
    to: 'retry',
    status: 409,
    type: 'application/json',
    body: '{"error":{"code":"NEN_RETRY_COMMITTED","message":"nen: the original request was already committed; the retry did not run"}}',
  },
  { name: 'options-ok', to: 'options', status: 204, type: '', body: '' },
];

function keysOf(core, backend, sessions, name, epoch) {
  let secret = sessions.get(name).secret;
  for (let e = 0; e < epoch; e++) secret = core.nextEpochSecret(backend, secret);
  return core.deriveEpochKeyMaterial(backend, secret);
}

function buildRequest(core, backend, sessions, r) {
  const s = sessions.get(r.session).vector;
  const sid = Buffer.from(s.sessionId, 'hex');
  const flags = r.flags ?? 0;
  const ts = TS0 + (r.name === 'retry' ? 5000 : r.seq * 1000);
  const meta = { sessionId: sid, epoch: r.epoch, seq: BigInt(r.seq), timestamp: ts, flags };
  const cq = (flags & REQ.CONFIDENTIAL_QUERY) !== 0;
  const qAt = r.target.indexOf('?');
  const sentTarget = cq ? r.target.slice(0, qAt) : r.target;
  let retry = '';
  if (r.retryOf) {
    const o = sessions.get(r.retryOf.session).vector;
    retry = core.formatRetryRef({ sessionId: Buffer.from(o.sessionId, 'hex'), epoch: r.retryOf.epoch, seq: BigInt(r.retryOf.seq), timestamp: r.retryOf.ts });
  }
  const body = r.body === null ? new Uint8Array(0) : utf8(r.body);
  let plaintext = flags & REQ.COMPRESSED ? core.deflateRequestBody(body) : body;
  if (cq) plaintext = core.packConfidentialQuery(r.target.slice(qAt + 1), plaintext);
  const aad = core.requestAad(meta, r.method, sentTarget, r.type, retry);
  const k = keysOf(core, backend, sessions, r.session, r.epoch);
  const aead = backend.createAead(k.c2sKey);
  const sealed = core.sealMessage(aead, k.c2sIv, meta.seq, aad, plaintext);
  aead.dispose();
  const inHeader = r.method === 'GET' || r.method === 'HEAD';
  const headers = { nen: core.formatRequestHeader(meta) };
  if (retry) headers['nen-retry'] = retry;
  if (r.type) headers['nen-type'] = r.type;
  if (inHeader) headers['nen-body'] = core.encodeHeaderRecord(sealed);
  else headers['content-type'] = 'application/nen';
  return {
    name: r.name,
    session: r.session,
    epoch: r.epoch,
    seq: r.seq,
    ts,
    flags,
    method: r.method,
    url: r.target,
    target: sentTarget,
    aadTarget: core.canonicalTarget(sentTarget),
    contentType: r.type,
    retry: retry || null,
    body: hex(body),
    plaintext: hex(plaintext),
    plaintextReproducible: (flags & REQ.COMPRESSED) === 0,
    headers,
    aad: hex(aad),
    nonce: hex(core.computeNonce(k.c2sIv, meta.seq, 0)),
    sealed: hex(sealed),
    wireBody: inHeader ? null : hex(sealed),
  };
}

function sealResponse(core, backend, sessions, req, status, flags, type, plaintext) {
  const s = sessions.get(req.session).vector;
  const aad = core.responseAad(Buffer.from(s.sessionId, 'hex'), req.epoch, BigInt(req.seq), status, flags, type);
  const k = keysOf(core, backend, sessions, req.session, req.epoch);
  const aead = backend.createAead(k.s2cKey);
  const sealed = core.sealMessage(aead, k.s2cIv, BigInt(req.seq), aad, plaintext);
  aead.dispose();
  return { aad, nonce: core.computeNonce(k.s2cIv, BigInt(req.seq), 0), sealed };
}

function buildResponse(core, backend, sessions, reqs, r) {
  const req = reqs.find((q) => q.name === r.to);
  const flags = r.flags ?? 0;
  const body = utf8(r.body);
  const plaintext = flags & 1 ? core.deflateResponseBody(body) : body;
  const { aad, nonce, sealed } = sealResponse(core, backend, sessions, req, r.status, flags, r.type, plaintext);
  const bodiless = core.isNullBodyStatus(r.status) || req.method === 'HEAD';
  const headers = { nen: core.formatResponseHeader(flags), 'content-type': 'application/nen' };
  if (r.type) headers['nen-type'] = r.type;
  if (bodiless) headers['nen-body'] = core.encodeHeaderRecord(sealed);
  return {
    name: r.name,
    request: r.to,
    session: req.session,
    epoch: req.epoch,
    seq: req.seq,
    status: r.status,
    flags,
    contentType: r.type,
    body: hex(body),
    plaintext: hex(plaintext),
    plaintextReproducible: (flags & 1) === 0,
    headers,
    aad: hex(aad),
    nonce: hex(nonce),
    sealed: hex(sealed),
    wireBody: bodiless ? null : hex(sealed),
  };
}

/** Responses a client must refuse (NEN_RESPONSE_UNAUTHENTICATED): each presented for `request`. */
function buildRejects(core, backend, sessions, reqs, resps) {
  const get = (n) => resps.find((x) => x.name === n);
  const created = get('created-json');
  const okGet = get('ok-get');
  const other = sealResponse(
    core,
    backend,
    sessions,
    reqs.find((q) => q.name === 'retry'),
    201,
    0,
    'application/json',
    utf8('{"id":1}'),
  );
  const fromOtherSession = { status: 201, flags: 0, contentType: 'application/json', sealed: hex(other.sealed) };
  return [
    { name: 'status-changed', request: 'post-json-query', status: 200, flags: 0, contentType: 'application/json', sealed: created.sealed },
    { name: 'type-changed', request: 'post-json-query', status: 201, flags: 0, contentType: 'text/plain', sealed: created.sealed },
    { name: 'flags-changed', request: 'post-json-query', status: 201, flags: 1, contentType: 'application/json', sealed: created.sealed },
    { name: 'swapped-same-session', request: 'post-json-query', status: 200, flags: 0, contentType: 'application/json', sealed: okGet.sealed },
    { name: 'swapped-other-session', request: 'post-json-query', ...fromOtherSession },
    {
      name: 'tampered-byte',
      request: 'post-json-query',
      status: 201,
      flags: 0,
      contentType: 'application/json',
      sealed: `${created.sealed.slice(0, -2)}${created.sealed.endsWith('00') ? '01' : '00'}`,
    },
    {
      name: 'compressed-not-asked',
      request: 'post-json-query',
      status: 201,
      flags: 1,
      contentType: 'application/json',
      sealed: hex(sealResponse(core, backend, sessions, reqs[0], 201, 1, 'application/json', core.deflateResponseBody(utf8('{"id":1}'))).sealed),
    },
  ].map((v) => ({ ...v, expect: 'NEN_RESPONSE_UNAUTHENTICATED' }));
}

export function buildMessages(core, backend, sessions) {
  const requests = REQUESTS.map((r) => buildRequest(core, backend, sessions, r));
  const responses = RESPONSES.map((r) => buildResponse(core, backend, sessions, requests, r));
  const rejects = buildRejects(core, backend, sessions, requests, responses);
  return {
    description:
      'Sealed messages (PROTOCOL.md §5, §5.2, §5.4, §7.1) under the sessions of handshake.vectors.json (`session` names one; `epoch` selects its epochs[] keys). requests: nen header = "1.<sid>.<epoch>.<seq>.<ts>.<flags>"; aadTarget = canonicalTarget(target) (§5.3; with flag 0x02 the query travels inside: plaintext = u16(len(q)) || q || body); aad = "nen/1 request" || 01 || sid || u32 epoch || u64 seq || u64 ts || u8 flags || lp(METHOD) || lp(aadTarget) || lp(contentType) [|| lp(retry) with flag 0x10]; nonce = c2sIv XOR (u32(0) || u64(seq)); sealed = ChaCha20-Poly1305(c2sKey, nonce, aad, plaintext); GET/HEAD carry it base64url in nen-body, others as the body (wireBody). responses: aad = "nen/1 response" || 01 || sid || u32 epoch || u64 seq || u16 status || u8 flags || lp(contentType); sealed under s2cKey/s2cIv with the request seq; null-body statuses and HEAD carry it in nen-body. flags 0x01 (COMPRESSED): plaintext is raw DEFLATE of body (plaintextReproducible false: open and inflate instead of re-sealing). rejects: responses presented for `request` that a client must refuse with `expect`.',
    provenance: PROVENANCE,
    requests,
    responses,
    rejects,
  };
}
