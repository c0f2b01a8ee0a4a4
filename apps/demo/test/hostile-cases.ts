/**
 * The hostile-input table (THREAT_MODEL.md properties 5, 7, 11, 12): every row is one request (or a short
 * sequence) an attacker or a broken client can send to the live demo, with the HTTP status and the
 * `nen-error` code the server must answer. hostile.test.ts runs it against `next start`;
 * HOSTILE_CASES.md is rendered from it by `renderMarkdown()` (hostile.test.ts fails when the
 * committed file is stale; NEN_UPDATE_TABLES=1 rewrites it). The rows live in hostile-cases-header.ts,
 * -body.ts and -handshake.ts, their types and builders in hostile-build.ts; this module keeps the order.
 *
 * Check order the expectations rely on (packages/server/src/nen.ts): `nen` header syntax (400) →
 * timestamp (401) → content type (415) → body size (413) → session keys (401) → AEAD (401) →
 * replay commit (409) → decompress / JSON (400) → handler.
 *
 * Pitfalls:
 *  - A `code: null` row is answered by Node's HTTP parser or Next itself before Nen runs (e.g. 431
 *    for oversized header blocks): there is no Nen code to check, only that nothing crashes.
 *  - Rows that need a valid session use `ctx.capture()`: a real @nen/client seals the request and
 *    a transport captures it instead of sending it, so the row can then damage exactly one field.
 *  - Handshake rows each carry their own `x-forwarded-for` so that the handshake rate limit only
 *    fires in the flood row.
 */
import type { HostileCase } from './hostile-build';
import { BINDING_CASES, BODY_CASES } from './hostile-cases-body';
import { ABUSE_CASES, HANDSHAKE_CASES, SESSION_CASES } from './hostile-cases-handshake';
import { CONTENT_TYPE_CASES, HEADER_CASES, SEQUENCE_CASES } from './hostile-cases-header';

export type { Built, Captured, CaseContext, Expectation, HostileCase } from './hostile-build';

/** Every row, in the table's order (the ids and order HOSTILE_CASES.md shows). */
export const HOSTILE_CASES: readonly HostileCase[] = [
  ...HEADER_CASES,
  ...SEQUENCE_CASES,
  ...CONTENT_TYPE_CASES,
  ...BODY_CASES,
  ...BINDING_CASES,
  ...HANDSHAKE_CASES,
  ...SESSION_CASES,
  ...ABUSE_CASES,
];

/** The markdown rendering committed as HOSTILE_CASES.md. */
export function renderMarkdown(cases: readonly HostileCase[] = HOSTILE_CASES): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    '# Hostile-input battery',
    '',
    'Generated from `hostile-cases.ts` by `hostile.test.ts` (the test fails when this file is stale).',
    'Every row runs against a live `next start` of the demo (`NEN_MAX_BODY=65536`, `NEN_HANDSHAKE_RATE=40`, `NEN_TRUST_PROXY=1`);',
    'after every row a normal client makes an encrypted round trip, so the server is still serving.',
    '`code` is the `nen-error` header (and `error.code` in the JSON body); `—` means Node or Next answers',
    'before Nen runs. Status 0 means the client gave up on purpose (no response expected).',
    '',
    '| id | group | case | input | status | code |',
    '|---|---|---|---|---|---|',
    ...cases.map((c) => `| ${c.id} | ${c.group} | ${esc(c.title)} | ${esc(c.input)} | ${c.expect.status} | ${c.expect.code ? `\`${c.expect.code}\`` : '—'} |`),
    '',
    'Slow and abandoned bodies (B08, B09): Node parses the body on the event loop without holding a',
    'worker; a trickled body is answered when it completes (other clients are served meanwhile), an',
    "abandoned one is dropped when the socket closes. Node's `server.requestTimeout` (300 s by",
    'default under `next start`) bounds how long any single request may stay open.',
    '',
  ];
  return lines.join('\n');
}
