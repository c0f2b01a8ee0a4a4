/**
 * The hostile uploads of issue 20, as one table every surface runs (in-process Hono, Express and
 * node:http here; `next start` Node and Edge routes in apps/demo/test/uploads.test.ts):
 *  - an encrypted request whose chunked body grows past the limit (4.2 MB, 5 MiB);
 *  - a request declaring `Content-Length: 4294967296` that sends 100 bytes and waits;
 *  - a chunked ClientHello of 70 KB and 100 KB (limit 4096);
 * each paced and at full speed, the full-speed sender writing on after the answer came.
 *
 * Pitfalls: the encrypted request needs a well-formed `nen` header with a fresh timestamp and the
 * sealed content type (steps 1-3 run before the body is read); its session need not exist, since
 * the body limit (step 4) is checked before the session lookup. `limit` is the sealed limit the
 * server enforces: the 4 MiB plaintext default + the 16-byte AEAD tag.
 */
import type { Framing, HostileRequest } from './sender.js';

export const DEFAULT_LIMIT = 4 * 1024 * 1024 + 16;
export const HELLO_LIMIT = 4096;

export interface HostileCase {
  readonly name: string;
  readonly kind: 'request' | 'handshake';
  readonly framing: Framing;
  readonly pace: 'full' | 'paced';
}

/** A syntactically valid `nen` header for an unknown session, timestamped now. */
export function requestHeaders(): Record<string, string> {
  const sid = Buffer.alloc(16, 0x4e).toString('base64url');
  return { nen: `1.${sid}.0.1.${Date.now()}.0`, 'content-type': 'application/nen' };
}

export const HANDSHAKE_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/nen-handshake' };

const bodies: Array<Omit<HostileCase, 'pace'>> = [
  { name: 'chunked 4.2 MB', kind: 'request', framing: { kind: 'chunked', total: 4_200_000 } },
  { name: 'chunked 5 MiB', kind: 'request', framing: { kind: 'chunked', total: 5 * 1024 * 1024 } },
  { name: 'content-length 2^32, 100 bytes sent', kind: 'request', framing: { kind: 'lying-length', declared: 4294967296, send: 100 } },
  { name: 'chunked ClientHello 70 KB', kind: 'handshake', framing: { kind: 'chunked', total: 70_000 } },
  { name: 'chunked ClientHello 100 KB', kind: 'handshake', framing: { kind: 'chunked', total: 100_000 } },
];

export const CASES: HostileCase[] = bodies.flatMap((b) => [
  { ...b, pace: 'full' as const },
  { ...b, pace: 'paced' as const },
]);

/** The request for `c` against a server at `url` whose encrypted route is `echoPath`. */
export function requestFor(c: HostileCase, url: string, paths: { echo: string; handshake: string }, limit = DEFAULT_LIMIT): HostileRequest {
  const handshake = c.kind === 'handshake';
  return {
    url,
    path: handshake ? paths.handshake : paths.echo,
    headers: handshake ? { ...HANDSHAKE_HEADERS } : requestHeaders(),
    framing: c.framing,
    limit: handshake ? HELLO_LIMIT : limit,
    pace: c.pace,
  };
}
