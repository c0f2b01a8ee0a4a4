/**
 * Browser side of the demo: one Nen client (`createNenClient`) for the page, a small JSON helper on
 * top of `client.fetch`, a stream helper on top of `client.stream`, and the wire log the wire panel
 * renders.
 *
 * The wire log pairs two views of each request: what an intermediary sees (from the client's
 * `onExchange` hook: method, URL, Nen headers, ciphertext length and first bytes) and what the
 * application sees (the plaintext it sent and the decrypted JSON it got back).
 *
 * Pitfalls:
 *  - Bounded: the log keeps the last MAX_ENTRIES entries; pending app calls waiting for their wire
 *    view are matched FIFO by method + path and dropped with the entry.
 *  - The server key is pinned when the page was rendered with one (NEN_SERVER_PIN or
 *    NEXT_PUBLIC_NEN_SERVER_KEY); without a pin the handshake is not authenticated independently
 *    of TLS, and the session badge says so.
 *  - Confidential query is on: search terms travel inside the envelope, only the path is visible.
 */
import { createNenClient, type NenClient, type WireExchange } from '@nen/client';

export const MAX_ENTRIES = 12;

/** What an intermediary sees of one HTTP exchange. */
export interface WireView {
  method: string;
  url: string;
  requestHeaders: Array<[string, string]>;
  requestBytes: number;
  requestHex: string;
  status: number;
  responseHeaders: Array<[string, string]>;
  responseBytes: number | null;
  responseHex: string;
}

/** What the application sees of the same exchange. */
export interface AppView {
  request?: unknown;
  status?: number;
  response?: unknown;
  error?: { code: string; message: string };
}

export interface WireEntry {
  id: number;
  at: number;
  label: string;
  method: string;
  path: string;
  kind: 'api' | 'stream' | 'session';
  state: 'pending' | 'ok' | 'error';
  wire?: WireView;
  app: AppView;
}

// ---------------------------------------------------------------------------------------------
// Wire log (an external store for React's useSyncExternalStore)

let entries: readonly WireEntry[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly WireEntry[]): void {
  entries = next.slice(-MAX_ENTRIES);
  for (const l of listeners) l();
}

function patch(id: number, change: (e: WireEntry) => WireEntry): void {
  let hit = false;
  const next = entries.map((e) => {
    if (e.id !== id) return e;
    hit = true;
    return change(e);
  });
  if (hit) publish(next);
}

export const wireLog = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot(): readonly WireEntry[] {
    return entries;
  },
  getServerSnapshot(): readonly WireEntry[] {
    return EMPTY;
  },
  clear(): void {
    publish([]);
  },
};
const EMPTY: readonly WireEntry[] = [];

function begin(kind: WireEntry['kind'], label: string, method: string, path: string, request?: unknown): number {
  const id = nextId++;
  publish([...entries, { id, at: Date.now(), label, method, path, kind, state: 'pending', app: request === undefined ? {} : { request } }]);
  return id;
}

// ---------------------------------------------------------------------------------------------
// onExchange → WireView

const HEX_BYTES = 24;

function headerPairs(h: Record<string, string>): Array<[string, string]> {
  return Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]);
}

/** "a1b2c3d4…" → "a1b2 c3d4 …", at most HEX_BYTES bytes. */
function spacedHex(hex: string): string {
  return (hex.slice(0, HEX_BYTES * 2).match(/.{1,4}/g) ?? []).join(' ');
}

export function toWireView(e: WireExchange): WireView {
  return {
    method: e.method,
    url: e.url,
    requestHeaders: headerPairs(e.requestHeaders),
    requestBytes: e.requestBodyLength,
    requestHex: spacedHex(e.requestBodyHex),
    status: e.status,
    responseHeaders: headerPairs(e.responseHeaders),
    responseBytes: e.responseBodyLength,
    responseHex: spacedHex(e.responseBodyHex),
  };
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://x').pathname;
  } catch {
    return url;
  }
}

/** What the session exchanges mean, shown on the app side (they carry no application data). */
const SESSION_NOTES: Record<string, string> = {
  handshake: '(handshake: an ephemeral key share and the KEM ciphertext; no application data)',
  rotate: '(rekey: both sides move to the next epoch keys, derived from the session secret; no new KEM)',
  terminate: '(the session is ended on the server; the next request handshakes again)',
  status: '(session status, authenticated like any request)',
};

function onExchange(e: WireExchange): void {
  const view = toWireView(e);
  const path = pathOf(view.url);
  const pending = e.kind === 'request' ? entries.find((en) => !en.wire && en.kind !== 'session' && en.method === view.method && en.path === path) : undefined;
  if (pending) {
    patch(pending.id, (en) => ({ ...en, wire: view }));
    return;
  }
  const action = path.split('/').filter(Boolean).pop() ?? 'session';
  publish([
    ...entries,
    {
      id: nextId++,
      at: Date.now(),
      label: e.kind === 'request' ? `${view.method} ${path}` : `Nen ${action}`,
      method: view.method,
      path,
      kind: 'session',
      state: view.status >= 400 ? 'error' : 'ok',
      wire: view,
      app: { status: view.status, response: SESSION_NOTES[e.kind === 'handshake' ? 'handshake' : action] },
    },
  ]);
}

// ---------------------------------------------------------------------------------------------
// The client

let client: NenClient | null = null;
let clientPin: string | undefined;

/** The page's Nen client; `serverKey` ("kid:base64url(pk)") pins the server when given. */
export function getClient(serverKey?: string): NenClient {
  if (client && clientPin === serverKey) return client;
  clientPin = serverKey;
  client = createNenClient({
    ...(serverKey ? { serverKey } : { unpinned: true }),
    confidentialQuery: true,
    timeoutMs: 15_000,
    onExchange,
  });
  return client;
}

export interface ErrorInfo {
  code: string;
  message: string;
  status?: number;
}

/** A stable, display-ready description of anything thrown by the Nen client or a route. */
export function describeError(error: unknown): ErrorInfo {
  if (typeof error === 'object' && error !== null) {
    const e = error as { code?: unknown; message?: unknown; status?: unknown; name?: unknown };
    return {
      code: typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'ERROR',
      message: typeof e.message === 'string' ? e.message : String(error),
      ...(typeof e.status === 'number' ? { status: e.status } : {}),
    };
  }
  return { code: 'ERROR', message: String(error) };
}

/** An application-level error reply (the route answered, encrypted, with a 4xx/5xx and a JSON body). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** JSON over Nen: `client.fetch` with a JSON body, the decrypted JSON reply, logged in the wire log. */
export async function api<T>(serverKey: string | undefined, label: string, path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const method = init.method ?? (init.json === undefined ? 'GET' : 'POST');
  const id = begin('api', label, method, pathOf(path), init.json);
  try {
    const res = await getClient(serverKey).fetch(path, {
      method,
      ...(init.json === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.json) }),
    });
    const data = (await res.json()) as T & { error?: string; code?: string };
    patch(id, (e) => ({ ...e, state: res.ok ? 'ok' : 'error', app: { ...e.app, status: res.status, response: data } }));
    if (!res.ok) throw new ApiError(res.status, data.code ?? `HTTP_${res.status}`, data.error ?? res.statusText);
    return data;
  } catch (error) {
    if (!(error instanceof ApiError)) {
      const info = describeError(error);
      patch(id, (e) => ({ ...e, state: 'error', app: { ...e.app, error: { code: info.code, message: info.message } } }));
    }
    throw error;
  }
}

/**
 * Server-sent events over Nen: `client.stream`, decrypted record by record; calls `onToken` for
 * every `data:` event until `[DONE]`. Returns the concatenated tokens.
 */
export async function streamTokens(
  serverKey: string | undefined,
  label: string,
  path: string,
  json: unknown,
  onToken: (token: string) => void,
  signal?: AbortSignal,
): Promise<string> {
  const id = begin('stream', label, 'POST', pathOf(path), json);
  const decoder = new TextDecoder();
  let buffer = '';
  let text = '';
  let events = 0;
  try {
    const stream = getClient(serverKey).stream(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
      ...(signal ? { signal } : {}),
    });
    outer: for await (const chunk of stream) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) !== -1) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        for (const line of event.split('\n')) {
          if (!line.startsWith('data:')) continue;
          const data = line.slice(5).trim();
          if (data === '[DONE]') break outer;
          const token = (JSON.parse(data) as { token?: unknown }).token;
          if (typeof token === 'string') {
            events++;
            text += token;
            onToken(token);
          }
        }
      }
    }
    patch(id, (e) => ({ ...e, state: 'ok', app: { ...e.app, status: 200, response: { events, text } } }));
    return text;
  } catch (error) {
    const info = describeError(error);
    patch(id, (e) => ({ ...e, state: 'error', app: { ...e.app, error: { code: info.code, message: info.message } } }));
    throw error;
  }
}
