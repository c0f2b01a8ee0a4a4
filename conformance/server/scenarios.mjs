/**
 * The conformance scenarios, as data: each names what misbehaves (`fault`, applied by the fault
 * server to the real @nen/server answer), the server settings, the steps the runner sends to a
 * driver (DRIVER.md commands, with symbolic pins) and the expected outcome of each step: exact
 * status and body bytes, or the ERROR_CODES.md code; `runs` = the handler runs counted server-side
 * after the last step (at most once, whatever the network did); `maxBodyBytesSent` = at most this
 * much of an oversized answer may have been pulled by the client (it must stop reading); `requests`
 * = the /api/echo requests the server received (the original and its retry).
 *
 * Step kinds: `client` / `handshake` / `fetch` / `close` (driver commands; `expect` is checked),
 * `control` (the runner asks the fault server, e.g. rotate its keys), `sleep` (ms).
 * Echo answers: `{"method","query","body"}` JSON (status 200; DELETE and OPTIONS 204, HEAD no body).
 * Paths are relative to the scenario's base (`/scenario/<name>`).
 *
 * Pitfalls:
 *  - Every driver (every language's client) runs every scenario and must pass all of them: an
 *    expectation written for one client's behaviour (not PROTOCOL.md's) fails the others.
 *  - `sleep` steps are real time (the idle-expiry scenario waits ~3.3 s): keep them few and short,
 *    they add up once per driver.
 */
const echo = (method, query, body) => JSON.stringify({ method, query, body });
const client = (pins, extra = {}) => ({ op: 'client', name: 'c1', pins, ...extra });
const post = (expect, extra = {}) => ({
  op: 'fetch',
  client: 'c1',
  method: 'POST',
  path: '/api/echo',
  text: 'hello',
  contentType: 'text/plain',
  expect,
  ...extra,
});
const okPost = { status: 200, body: echo('POST', '', 'hello') };
const streamFetch = (expect) => ({
  op: 'fetch',
  client: 'c1',
  method: 'POST',
  path: '/api/stream?n=3',
  text: '',
  contentType: 'text/plain',
  stream: true,
  expect,
});
const CHUNKS = ['data: 0\n\n', 'data: 1\n\n', 'data: 2\n\n'];
const unauth = { code: 'NEN_RESPONSE_UNAUTHENTICATED' };

export const SCENARIOS = [
  {
    name: 'baseline-methods',
    misbehaves: 'nothing: a pinned X-Wing handshake, then each method once',
    fault: 'none',
    steps: [
      client(['k1']),
      { op: 'handshake', client: 'c1', expect: { keyId: 'k1', kem: 'xwing', pinned: true } },
      { op: 'fetch', client: 'c1', method: 'GET', path: '/api/echo?a=1&b=x%20y', expect: { status: 200, body: echo('GET', '?a=1&b=x%20y', '') } },
      { op: 'fetch', client: 'c1', method: 'HEAD', path: '/api/echo', expect: { status: 200, body: '' } },
      post(okPost),
      {
        op: 'fetch',
        client: 'c1',
        method: 'PUT',
        path: '/api/echo',
        text: '{"a":1}',
        contentType: 'application/json',
        expect: { status: 200, body: echo('PUT', '', '{"a":1}') },
      },
      {
        op: 'fetch',
        client: 'c1',
        method: 'PATCH',
        path: '/api/echo?x=%7E',
        text: 'é',
        contentType: 'text/plain;charset=utf-8',
        expect: { status: 200, body: echo('PATCH', '?x=%7E', 'é') },
      },
      { op: 'fetch', client: 'c1', method: 'DELETE', path: '/api/echo', expect: { status: 204, body: '' } },
      { op: 'fetch', client: 'c1', method: 'OPTIONS', path: '/api/echo', expect: { status: 204, body: '' } },
    ],
    runs: 7,
  },
  {
    name: 'baseline-mlkem768-pinned',
    misbehaves: 'nothing: a pinned ML-KEM-768 handshake and a POST',
    fault: 'none',
    steps: [client(['m1']), { op: 'handshake', client: 'c1', expect: { keyId: 'm1', kem: 'mlkem768', pinned: true } }, post(okPost)],
    runs: 1,
  },
  {
    name: 'baseline-unpinned',
    misbehaves: 'nothing: unpinned handshakes with each KEM',
    fault: 'none',
    needs: ['unpinned'],
    steps: [
      client([], { kem: 'xwing' }),
      { op: 'handshake', client: 'c1', expect: { keyId: null, kem: 'xwing', pinned: false } },
      post(okPost),
      { op: 'client', name: 'c2', pins: [], kem: 'mlkem768' },
      { op: 'handshake', client: 'c2', expect: { keyId: null, kem: 'mlkem768', pinned: false } },
      { ...post(okPost), client: 'c2' },
    ],
    runs: 2,
  },
  {
    name: 'baseline-stream',
    misbehaves: 'nothing: a response stream of three records and the empty final one',
    fault: 'none',
    needs: ['stream'],
    steps: [client(['k1']), streamFetch({ status: 200, body: CHUNKS.join(''), chunks: CHUNKS })],
    runs: 1,
  },
  { name: 'tamper-body', misbehaves: 'one byte of the sealed response body is flipped', fault: 'tamper-body', steps: [client(['k1']), post(unauth)], runs: 1 },
  {
    name: 'tamper-header',
    misbehaves: 'the nen-type header of the response is changed',
    fault: 'tamper-header',
    steps: [client(['k1']), post(unauth)],
    runs: 1,
  },
  { name: 'tamper-status', misbehaves: 'the response status 200 is changed to 203', fault: 'tamper-status', steps: [client(['k1']), post(unauth)], runs: 1 },
  {
    name: 'swap-request',
    misbehaves: 'the answer to the second request is the sealed answer to the first (same session)',
    fault: 'swap',
    steps: [client(['k1']), post(okPost), post(unauth)],
    runs: 2,
  },
  {
    name: 'swap-session',
    misbehaves: "the answer to another client's request is the sealed answer from the first client's session",
    fault: 'swap',
    steps: [client(['k1']), post(okPost), { op: 'client', name: 'c2', pins: ['k1'] }, { ...post(unauth), client: 'c2' }],
    runs: 2,
  },
  {
    name: 'stream-truncated',
    misbehaves: 'the final record of a response stream is dropped',
    fault: 'stream-truncate',
    needs: ['stream'],
    steps: [client(['k1']), streamFetch({ code: 'NEN_STREAM_TRUNCATED', partial: CHUNKS.join('') })],
    runs: 1,
  },
  {
    name: 'stream-reordered',
    misbehaves: 'records 0 and 1 of a response stream are swapped',
    fault: 'stream-reorder',
    needs: ['stream'],
    steps: [client(['k1']), streamFetch({ code: 'NEN_STREAM_INVALID', partial: '' })],
    runs: 1,
  },
  {
    name: 'stream-duplicated',
    misbehaves: 'record 1 of a response stream is sent twice',
    fault: 'stream-duplicate',
    needs: ['stream'],
    steps: [client(['k1']), streamFetch({ code: 'NEN_STREAM_INVALID', partial: CHUNKS.slice(0, 2).join('') })],
    runs: 1,
  },
  {
    name: 'forged-401-after-handler',
    misbehaves: 'after the handler ran, its sealed answer is replaced by an unauthenticated 401 NEN_SESSION_UNKNOWN (once)',
    fault: 'forge-401-once',
    needs: ['retry'],
    steps: [client(['k1']), post({ code: 'NEN_RETRY_COMMITTED' })],
    runs: 1,
  },
  {
    name: 'forged-401-twice',
    misbehaves: 'every answer after the handler ran is an unauthenticated 401 NEN_SESSION_UNKNOWN, the retry too',
    fault: 'forge-401-always',
    needs: ['retry'],
    steps: [client(['k1']), post({ code: 'NEN_OUTCOME_UNKNOWN' })],
    runs: 1,
  },
  {
    name: 'forged-500-after-handler',
    misbehaves: 'after the handler ran, its answer is replaced by an unauthenticated 500 NEN_INTERNAL',
    fault: 'forge-500',
    steps: [client(['k1']), post({ code: 'NEN_INTERNAL' })],
    runs: 1,
  },
  {
    name: 'forged-502-after-handler',
    misbehaves: "after the handler ran, its answer is replaced by a proxy's plain 502 page",
    fault: 'forge-502',
    steps: [client(['k1']), post(unauth)],
    runs: 1,
  },
  {
    name: 'unknown-kid',
    misbehaves: 'the client pins a key id the server does not have',
    fault: 'none',
    steps: [client(['zz']), { op: 'handshake', client: 'c1', expect: { code: 'NEN_UNKNOWN_KEY_ID' } }, post({ code: 'NEN_UNKNOWN_KEY_ID' })],
    runs: 0,
  },
  {
    name: 'unknown-kid-next-pin',
    misbehaves: 'the first pin names a key id the server does not have; the second is live',
    fault: 'none',
    steps: [client(['zz', 'k1']), { op: 'handshake', client: 'c1', expect: { keyId: 'k1', kem: 'xwing', pinned: true } }, post(okPost)],
    runs: 1,
  },
  {
    name: 'key-rotation',
    misbehaves: 'the server replaces key k1 by k2 mid-run (same session store)',
    fault: 'none',
    steps: [
      client(['k2', 'k1']),
      { op: 'handshake', client: 'c1', expect: { keyId: 'k1', kem: 'xwing', pinned: true } },
      post(okPost),
      { op: 'control', action: 'rotate-keys' },
      post(okPost),
      { op: 'handshake', client: 'c1', expect: { keyId: 'k2', kem: 'xwing', pinned: true } },
      post(okPost),
    ],
    runs: 3,
  },
  {
    name: 'wrong-pin',
    misbehaves: "the client's pin for k1 holds another public key (or the server's key was substituted)",
    fault: 'none',
    steps: [client(['k1-wrong']), { op: 'handshake', client: 'c1', expect: { code: 'NEN_HANDSHAKE_FAILED' } }, post({ code: 'NEN_HANDSHAKE_FAILED' })],
    runs: 0,
  },
  {
    name: 'downgrade-plain-answer',
    misbehaves: 'the sealed answer is replaced by a plain 200 JSON answer',
    fault: 'downgrade',
    steps: [client(['k1']), post(unauth)],
    runs: 1,
  },
  {
    name: 'downgrade-plain-handshake',
    misbehaves: 'the ServerHello is replaced by a plain 200 JSON answer',
    fault: 'downgrade-handshake',
    steps: [client(['k1']), { op: 'handshake', client: 'c1', expect: { code: 'NEN_HANDSHAKE_FAILED' } }],
    runs: 0,
  },
  {
    name: 'oversized-answer',
    misbehaves: 'the answer announces and sends 64 MiB, above the client limit of 1 MiB (the client must stop reading)',
    fault: 'oversized',
    steps: [client(['k1'], { maxBodyBytes: 1048576 }), post(unauth)],
    runs: 1,
    maxBodyBytesSent: 16 * 1048576,
  },
  {
    name: 'oversized-chunked-answer',
    misbehaves: 'the answer streams 64 MiB without a content-length, above the client limit of 1 MiB (the client must stop reading)',
    fault: 'oversized-chunked',
    steps: [client(['k1'], { maxBodyBytes: 1048576 }), post(unauth)],
    runs: 1,
    maxBodyBytesSent: 16 * 1048576,
  },
  {
    name: 'stalled-body',
    misbehaves: 'the answer head is sent, then the body stalls (the server gives up after 10 s)',
    fault: 'stall-body',
    steps: [client(['k1'], { timeoutMs: 1500 }), post({ code: 'NEN_TIMEOUT' })],
    runs: 1,
  },
  {
    name: 'stalled-head',
    misbehaves: 'no answer at all after the handler ran (the server gives up after 10 s)',
    fault: 'stall-head',
    steps: [client(['k1'], { timeoutMs: 1500 }), post({ code: 'NEN_TIMEOUT' })],
    runs: 1,
  },
  {
    name: 'tampered-request-once',
    misbehaves: 'the first sealed request body is altered on the way (401 NEN_AUTH_FAILED, handler not run); the retry after the backoff is not',
    fault: 'tamper-request-once',
    needs: ['retry'],
    steps: [client(['k1']), post(okPost)],
    runs: 1,
    requests: 2,
  },
  {
    name: 'session-lifetime-expired',
    misbehaves: 'the server grants 3 s sessions; the next request comes after the session ended (a new handshake, before or after a 401)',
    fault: 'none',
    server: { sessionTtlSeconds: 3 },
    steps: [client(['k1']), post(okPost), { op: 'sleep', ms: 3300 }, post(okPost)],
    runs: 2,
  },
  {
    name: 'session-idle-expired',
    misbehaves: 'the session dies of its 1 s idle timeout between two requests (401 NEN_SESSION_EXPIRED; a retry in a new session runs)',
    fault: 'none',
    server: { idleTimeoutSeconds: 1 },
    needs: ['retry'],
    steps: [client(['k1']), post(okPost), { op: 'sleep', ms: 1300 }, post(okPost)],
    runs: 2,
  },
];
