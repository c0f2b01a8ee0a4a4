/**
 * Bare-socket sender for the hostile-upload suites (issue 20): one HTTP/1.1 request over
 * node:net to 127.0.0.1 whose body `fetch` would never send: chunked growth past a limit, a
 * Content-Length that lies, paced or at full speed, and a sender that keeps writing after the
 * answer arrived. It reports what a client can read: status, `nen-error`, how long after the body
 * crossed the server's limit the first response byte came, and any socket error.
 *
 * Pitfalls:
 *  - "Crossing" is the moment the body bytes written exceed `limit` (for a declared length over
 *    the limit: when the head was written, since the server must refuse before reading a byte).
 *  - The response is parsed from the bytes read before any socket error: a reset that comes after
 *    the answer was read still counts as answered (`error` says what happened after).
 *  - Every socket is destroyed and every timer cleared by the time the promise settles; the whole
 *    exchange has a hard deadline (`timeoutMs`).
 */
import { Socket } from 'node:net';

export type Framing =
  /** Transfer-Encoding: chunked, `total` bytes, no Content-Length. */
  | { kind: 'chunked'; total: number }
  /** Content-Length: `declared`, then only `send` bytes (the connection stays open). */
  | { kind: 'lying-length'; declared: number; send: number }
  /** An honest Content-Length of `total` bytes. */
  | { kind: 'length'; total: number };

export interface HostileRequest {
  /** e.g. `http://127.0.0.1:3000` */
  readonly url: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly framing: Framing;
  /** The server's limit for this body in bytes: the answer is timed from when the body passes it. */
  readonly limit: number;
  /** 'full': write as fast as the socket takes it; 'paced': `pacedBytes` every `pacedMs`. */
  readonly pace: 'full' | 'paced';
  /** Keep writing the rest of the body after the answer arrived (a blind uploader). Default true. */
  readonly keepWriting?: boolean;
  /** Stay connected after a complete answer until the server closes (to time its drain). Default false. */
  readonly awaitClose?: boolean;
  readonly timeoutMs?: number;
}

export interface HostileResult {
  /** 0 when no response head was read. */
  readonly status: number;
  readonly code: string | null;
  readonly headers: Record<string, string>;
  /** Milliseconds from crossing the limit to the first response byte (negative: answered before). */
  readonly answerAfterCrossingMs: number;
  readonly bodyBytesWritten: number;
  /** A socket error seen (after the answer, or instead of it), e.g. 'ECONNRESET', 'EPIPE'; or 'timeout'. */
  readonly error: string | null;
  /** With `awaitClose`: milliseconds from the first response byte to the server's close. */
  readonly closedAfterAnswerMs: number;
}

export const PACED_BYTES = 64 * 1024;
export const PACED_MS = 10;
const FULL_CHUNK = 64 * 1024;

function parseHead(buf: Buffer): { status: number; headers: Record<string, string> } | null {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status, headers };
}

/** True once `buf` holds a whole response (Content-Length or chunked framing). */
function complete(buf: Buffer): boolean {
  const end = buf.indexOf('\r\n\r\n');
  const head = end < 0 ? null : parseHead(buf);
  if (!head) return false;
  const cl = head.headers['content-length'];
  if (cl !== undefined) return buf.length - end - 4 >= Number(cl);
  return /chunked/i.test(head.headers['transfer-encoding'] ?? '') && buf.subarray(end).includes('\r\n0\r\n\r\n');
}

/** Sends one hostile request; never rejects (failures are in the result). */
export function sendHostile(req: HostileRequest): Promise<HostileResult> {
  const u = new URL(req.url);
  const keepWriting = req.keepWriting ?? true;
  const { framing } = req;
  const total = framing.kind === 'lying-length' ? framing.send : framing.total;
  return new Promise((resolve) => {
    const sock = new Socket();
    const got: Buffer[] = [];
    let gotBytes = 0;
    let written = 0;
    let crossedAt = framing.kind === 'lying-length' || (framing.kind === 'length' && framing.total > req.limit) ? -1 : Number.NaN;
    let firstByteAt = Number.NaN;
    let error: string | null = null;
    let settled = false;
    let pacer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (pacer) clearTimeout(pacer);
      sock.destroy();
      const head = parseHead(Buffer.concat(got));
      resolve({
        status: head?.status ?? 0,
        code: head?.headers['nen-error'] ?? null,
        headers: head?.headers ?? {},
        answerAfterCrossingMs: Number.isNaN(firstByteAt) || Number.isNaN(crossedAt) ? Number.NaN : firstByteAt - crossedAt,
        bodyBytesWritten: written,
        error,
        closedAfterAnswerMs: performance.now() - firstByteAt,
      });
    };
    const deadline = setTimeout(() => {
      error ??= 'timeout';
      finish();
    }, req.timeoutMs ?? 10_000);
    deadline.unref();
    sock.on('data', (d: Buffer) => {
      if (Number.isNaN(firstByteAt)) firstByteAt = performance.now();
      if (gotBytes < 64 * 1024) got.push(d);
      gotBytes += d.length;
      if (!req.awaitClose && complete(Buffer.concat(got))) finish(); // a keep-alive answer: read in full is enough
    });
    sock.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
      finish();
    });
    sock.on('close', finish);
    const answered = () => !Number.isNaN(firstByteAt);
    const chunk = Buffer.alloc(Math.max(FULL_CHUNK, PACED_BYTES), 0x5a);
    const frame = (n: number): Buffer =>
      framing.kind === 'chunked' ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), chunk.subarray(0, n), Buffer.from('\r\n')]) : chunk.subarray(0, n);
    const noteWritten = (n: number) => {
      written += n;
      if (Number.isNaN(crossedAt) && written > req.limit) crossedAt = performance.now();
    };
    const done = () => written >= total || sock.destroyed || (!keepWriting && answered());
    const afterBody = () => {
      if (framing.kind === 'chunked' && written >= total && !sock.destroyed) sock.write('0\r\n\r\n');
    };
    const fullSpeed = () => {
      while (!done()) {
        const n = Math.min(FULL_CHUNK, total - written);
        const more = sock.write(frame(n));
        noteWritten(n);
        if (!more) {
          sock.once('drain', fullSpeed);
          return;
        }
      }
      afterBody();
    };
    const paced = () => {
      if (done()) return afterBody();
      const n = Math.min(PACED_BYTES, total - written);
      sock.write(frame(n));
      noteWritten(n);
      pacer = setTimeout(paced, PACED_MS);
    };
    sock.connect(Number(u.port), u.hostname, () => {
      const lines = [`POST ${req.path} HTTP/1.1`, `host: ${u.host}`];
      for (const [k, v] of Object.entries(req.headers)) lines.push(`${k}: ${v}`);
      if (framing.kind === 'chunked') lines.push('transfer-encoding: chunked');
      else lines.push(`content-length: ${framing.kind === 'lying-length' ? framing.declared : framing.total}`);
      sock.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (crossedAt === -1) crossedAt = performance.now();
      if (req.pace === 'full') fullSpeed();
      else paced();
    });
  });
}
