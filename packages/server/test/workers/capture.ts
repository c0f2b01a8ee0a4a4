/**
 * Recording and sending again the requests @nen/client sends, for the Workers tests
 * (./workerd.test.ts, ./wrangler.test.ts): the replay, tamper and forged-terminate cases send a
 * captured sealed request again, as it was or changed.
 *
 * Pitfall: the body is copied when recorded (the caller may reuse its buffer); a body that is
 * neither bytes nor a string is recorded as null.
 */

/** One request as sent. */
export interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: Uint8Array | null;
}

/** The request `init` sent to `url`, recorded. */
export function sentOf(url: string, init: RequestInit): Sent {
  const body: Uint8Array | null =
    init.body instanceof Uint8Array ? new Uint8Array(init.body) : typeof init.body === 'string' ? new TextEncoder().encode(init.body) : null;
  return { url, method: init.method ?? 'GET', headers: new Headers(init.headers), body };
}

/** A fetch that records every request in `sent`, then sends it to `to(url)` (by default where it was going). */
export function recordingFetch(sent: Sent[], to: (u: URL) => string = (u) => u.href): typeof fetch {
  return async (input, init = {}) => {
    const url = to(new URL(String(input)));
    sent.push(sentOf(url, init));
    return fetch(url, init);
  };
}

/** The last request recorded. */
export const last = (sent: readonly Sent[]): Sent => sent[sent.length - 1]!;

/** Sends a recorded request again, as it was or to another origin or path, or with another body. */
export function resend(s: Sent, options: { origin?: string; path?: string; body?: Uint8Array } = {}): Promise<Response> {
  const u = new URL(s.url);
  return fetch(`${options.origin ?? u.origin}${options.path ?? u.pathname + u.search}`, {
    method: s.method,
    headers: s.headers,
    body: (options.body ?? s.body) as Uint8Array<ArrayBuffer> | null,
  });
}

/** An answer's status and Nen error code (`nen-error`), its body consumed. */
export async function answer(response: Response | Promise<Response>): Promise<[number, string | null]> {
  const r = await response;
  await r.arrayBuffer();
  return [r.status, r.headers.get('nen-error')];
}
