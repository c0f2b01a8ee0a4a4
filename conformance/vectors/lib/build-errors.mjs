/**
 * Builds errors.vectors.json (the unauthenticated error answers of PROTOCOL.md §7, from the
 * WIRE_ERRORS catalog of @nen/core, and how a client classifies an answer) and retry.vectors.json
 * (the 1.1 recovery rules, §7 / §7.1: what a client does after each unauthenticated answer).
 *
 * Pitfalls: error answers are hints, never proof that the handler did not run; a client takes the
 * code from `nen-error` only when the status is the catalog's status for it. The retry rules are
 * derived from the catalog's `client` action, so they cannot drift from @nen/core.
 */
import { PROVENANCE } from './util.mjs';

/**
 * Session mode's catalog: the OHTTP gateway's codes (NEN_OHTTP_*, PROTOCOL.md §11) answer OHTTP
 * requests only, which a session-mode client never sends, so they are not part of this kit.
 */
const sessionErrors = (core) => Object.entries(core.WIRE_ERRORS).filter(([code]) => !code.startsWith('NEN_OHTTP_'));

const EXTRA_HEADERS = { NEN_RATE_LIMITED: { 'retry-after': '1' }, NEN_STORE_UNAVAILABLE: { 'retry-after': '1' }, NEN_METHOD_NOT_ALLOWED: { allow: 'POST' } };

/** The wire form of every unauthenticated protocol error. */
function wireAnswers(core) {
  return sessionErrors(core).map(([code, spec]) => ({
    code,
    status: spec.status,
    headers: { 'nen-error': code, 'content-type': 'application/json', 'cache-control': 'no-store', ...(EXTRA_HEADERS[code] ?? {}) },
    body: JSON.stringify({ error: { code, message: `nen: ${spec.message}` } }),
    sealedVariant: code === 'NEN_RETRY_COMMITTED' || code === 'NEN_RETRY_UNKNOWN' || code === 'NEN_STREAM_TRUNCATED',
  }));
}

/** How a client reads an answer to a sealed (non-handshake) request that carries no valid envelope. */
function classification() {
  const j = (code) => JSON.stringify({ error: { code, message: 'nen: x' } });
  return [
    {
      name: 'catalog status',
      status: 400,
      headers: { 'nen-error': 'NEN_MALFORMED', 'content-type': 'application/json' },
      body: j('NEN_MALFORMED'),
      expect: 'NEN_MALFORMED',
    },
    {
      name: 'status does not match the catalog',
      status: 500,
      headers: { 'nen-error': 'NEN_MALFORMED', 'content-type': 'application/json' },
      body: j('NEN_MALFORMED'),
      expect: 'NEN_RESPONSE_UNAUTHENTICATED',
    },
    {
      name: 'unknown code',
      status: 400,
      headers: { 'nen-error': 'NEN_SOMETHING_NEW', 'content-type': 'application/json' },
      body: j('NEN_SOMETHING_NEW'),
      expect: 'NEN_RESPONSE_UNAUTHENTICATED',
    },
    {
      name: 'plain 200 (downgrade)',
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"ok":true}',
      expect: 'NEN_RESPONSE_UNAUTHENTICATED',
    },
    {
      name: 'plain 502 from a proxy',
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<h1>Bad gateway</h1>',
      expect: 'NEN_RESPONSE_UNAUTHENTICATED',
    },
    {
      name: 'code only in the body',
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: j('NEN_SESSION_UNKNOWN'),
      expect: 'NEN_RESPONSE_UNAUTHENTICATED',
    },
  ];
}

export function buildErrors(core) {
  return {
    description:
      'Unauthenticated protocol errors (PROTOCOL.md §7, ERROR_CODES.md). wire: the answer a server sends for each code: status, headers (names lower case; retry-after / allow values are examples), body (the message text is generic and may change: compare error.code only). sealedVariant: the code is also sent sealed (inside a valid envelope, as a handler answer). classification: answers to a sealed request that carry no valid Nen envelope and what the client reports (before any retry rule applies; retry.vectors.json says what happens next).',
    provenance: PROVENANCE,
    wire: wireAnswers(core),
    classification: classification(),
  };
}

/** The 1.1 rules. `action`: retry = one new handshake then ONE request with RETRY naming the original. */
export function buildRetry(core) {
  const rules = [];
  for (const [code, spec] of sessionErrors(core)) {
    const retryable = spec.client === 'rehandshake-retry' || spec.client === 'rehandshake-once';
    rules.push({
      answer: { status: spec.status, code },
      request: 'ordinary',
      action: retryable ? 'retry' : 'throw',
      backoff: spec.client === 'rehandshake-once',
      final: retryable ? 'the retry answer decides' : code,
    });
    if (retryable) {
      rules.push({ answer: { status: spec.status, code }, request: 'streamed-body', action: 'throw', backoff: false, final: 'NEN_OUTCOME_UNKNOWN' });
      rules.push({ answer: { status: spec.status, code }, request: 'original-older-than-60s', action: 'throw', backoff: false, final: 'NEN_OUTCOME_UNKNOWN' });
      rules.push({ answer: { status: spec.status, code }, request: 'retry', action: 'throw', backoff: false, final: 'NEN_OUTCOME_UNKNOWN' });
    }
  }
  const retryAnswers = [
    { answer: 'sealed 2xx-5xx from the handler', final: 'the response (the handler ran once, for the retry)' },
    { answer: 'sealed 409 {"error":{"code":"NEN_RETRY_COMMITTED"}}', final: 'NEN_RETRY_COMMITTED' },
    { answer: 'sealed 409 {"error":{"code":"NEN_RETRY_UNKNOWN"}}', final: 'NEN_OUTCOME_UNKNOWN', cause: 'NEN_RETRY_UNKNOWN' },
    { answer: 'unauthenticated 400 NEN_MALFORMED (a 1.0 server refusing flag 0x10)', final: 'NEN_OUTCOME_UNKNOWN', cause: 'NEN_MALFORMED' },
    { answer: 'any other unauthenticated answer, a network error or a timeout', final: 'NEN_OUTCOME_UNKNOWN' },
  ];
  return {
    description:
      'Retry rules (PROTOCOL.md §7, §7.1; protocol 1.1). rules: after an unauthenticated error answer (`answer`) to a request of kind `request` (ordinary = a sealed request with a buffered body; streamed-body = flag 0x04; original-older-than-60s = the original was sent more than 60 s ago; retry = the request was itself a retry), a client either throws (`final` is the code the application sees) or retries: one new handshake (after a backoff of 250 ms doubling to 10 s when `backoff`), then the same method, target, body and content type sealed in the new session with flag 0x10 and header nen-retry = "<sid>.<epoch>.<seq>.<ts>" of the original (bound in the AAD: messages.vectors.json request "retry"). retryAnswers: what the retry answer means. A handshake answered with an error is never retried (NEN_UNKNOWN_KEY_ID moves to the next pin). The handler runs at most once in every case.',
    provenance: PROVENANCE,
    retryHorizonSeconds: 60,
    backoffMs: { first: 250, max: 10000 },
    rules,
    retryAnswers,
  };
}
