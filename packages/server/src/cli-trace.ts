/**
 * The `-v` view of `nen fetch` (cli-fetch.ts): a `fetch` for @nen/client that logs what travels
 * on the wire: the handshake messages' sizes, each request's sealed record (body or `nen-body`
 * header) and each response record, as wire bytes versus plaintext bytes (a sealed record is its
 * plaintext + the 16-byte ChaCha20-Poly1305 tag; a stream record adds its 4-byte length prefix).
 *
 * Pitfalls: it only observes (bytes pass through unchanged, and a stream is counted as it flows,
 * never buffered); the plaintext sizes are before decompression and include a confidential
 * query's prefix, as on the wire; nothing secret is logged (sizes, ids and headers only).
 */
export interface Trace {
  readonly verbose: boolean;
  log(line: string): void;
}

const TAG = 16;
const b64uLength = (chars: number) => Math.floor((chars * 3) / 4);

function requestSize(init: RequestInit | undefined): number | null {
  const b = init?.body;
  if (b instanceof Uint8Array) return b.byteLength;
  if (b instanceof ArrayBuffer) return b.byteLength;
  if (typeof b === 'string') return new TextEncoder().encode(b).byteLength;
  return b === undefined || b === null ? 0 : null;
}

/** Counts the framed records of a response stream as they pass: u32(len) || sealed. */
function recordCounter(trace: Trace): TransformStream<Uint8Array, Uint8Array> {
  let pending = new Uint8Array(0);
  let index = 0;
  const drain = () => {
    while (pending.length >= 4) {
      const len = new DataView(pending.buffer, pending.byteOffset, 4).getUint32(0);
      if (pending.length < 4 + len) return;
      trace.log(
        `< stream record ${index}: wire ${4 + len} B (4 B length + ${len} B sealed), plaintext ${Math.max(0, len - TAG)} B${len === TAG ? ' (empty: the final record, usually)' : ''}`,
      );
      index++;
      pending = pending.slice(4 + len);
    }
  };
  return new TransformStream({
    transform(chunk, c) {
      const next = new Uint8Array(pending.length + chunk.length);
      next.set(pending);
      next.set(chunk, pending.length);
      pending = next;
      drain();
      c.enqueue(chunk);
    },
    flush() {
      trace.log(`< stream ended after ${index} record(s)${pending.length ? `, ${pending.length} B left over` : ''}`);
    },
  });
}

function logRequest(trace: Trace, url: URL, init: RequestInit | undefined) {
  const method = init?.method ?? 'GET';
  const h = new Headers(init?.headers);
  const size = requestSize(init);
  trace.log(`> ${method} ${url.pathname}${url.search}`);
  if (url.pathname.endsWith('/handshake')) trace.log(`> ClientHello: ${size ?? '?'} B`);
  else if (h.get('nen')) {
    trace.log(
      `> nen: ${h.get('nen')}${h.get('nen-type') ? `, nen-type: ${h.get('nen-type')}` : ''}${h.get('nen-retry') ? `, nen-retry: ${h.get('nen-retry')}` : ''}`,
    );
    const inHeader = h.get('nen-body');
    if (inHeader !== null)
      trace.log(
        `> sealed record in the nen-body header: wire ${b64uLength(inHeader.length)} B (${inHeader.length} base64url chars), plaintext ${b64uLength(inHeader.length) - TAG} B`,
      );
    else if (size !== null) trace.log(`> sealed record in the body: wire ${size} B, plaintext ${size - TAG} B`);
    else trace.log('> streamed body (records not counted)');
  }
}

function logResponse(trace: Trace, url: URL, res: Response) {
  const type = res.headers.get('content-type') ?? '-';
  trace.log(
    `< HTTP ${res.status} content-type: ${type}${res.headers.get('nen') ? `, nen: ${res.headers.get('nen')}` : ''}${res.headers.get('nen-error') ? `, nen-error: ${res.headers.get('nen-error')} (unauthenticated)` : ''}`,
  );
  const declared = res.headers.get('content-length');
  if (url.pathname.endsWith('/handshake') && declared !== null) trace.log(`< ServerHello: ${declared} B`);
  const inHeader = res.headers.get('nen-body');
  if (inHeader !== null)
    trace.log(`< sealed record in the nen-body header: wire ${b64uLength(inHeader.length)} B, plaintext ${b64uLength(inHeader.length) - TAG} B`);
  else if (type === 'application/nen' && declared !== null) trace.log(`< sealed record in the body: wire ${declared} B, plaintext ${Number(declared) - TAG} B`);
}

/** Counts a body that came without content-length: a sealed record, or the ServerHello. */
function byteCounter(trace: Trace, handshake: boolean): TransformStream<Uint8Array, Uint8Array> {
  let n = 0;
  return new TransformStream({
    transform(chunk, c) {
      n += chunk.byteLength;
      c.enqueue(chunk);
    },
    flush() {
      trace.log(handshake ? `< ServerHello: ${n} B` : `< sealed record in the body: wire ${n} B, plaintext ${Math.max(0, n - TAG)} B`);
    },
  });
}

/** A fetch that logs the wire view when `trace.verbose`; otherwise globalThis.fetch itself. */
export function tracingFetch(trace: Trace): typeof fetch {
  if (!trace.verbose) return (input, init) => fetch(input, init);
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    logRequest(trace, url, init);
    const res = await fetch(input, init);
    logResponse(trace, url, res);
    const type = res.headers.get('content-type') ?? '';
    const unsized = !res.headers.has('content-length');
    const hs = type === 'application/nen-handshake';
    const counter = type.startsWith('application/nen-stream')
      ? recordCounter(trace)
      : unsized && (type === 'application/nen' || hs)
        ? byteCounter(trace, hs)
        : null;
    if (!res.body || !counter) return res;
    return new Response(res.body.pipeThrough(counter), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
