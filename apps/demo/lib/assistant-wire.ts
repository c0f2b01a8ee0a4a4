/**
 * The assistant page's Nen client and its raw wire log: the client's transport `fetch` is wrapped
 * so the page can show what an intermediary sees of the chat, record by record, as the sealed
 * stream arrives (ciphertext hex and sizes), next to the decrypted text `useChat` renders.
 *
 * Pitfalls:
 *  - Bounded: the last MAX_EXCHANGES exchanges and, per exchange, the last MAX_CHUNKS raw chunks
 *    (counts and byte totals keep going).
 *  - The tap copies nothing but the first HEX_BYTES bytes of each chunk; the body passes through.
 *  - One client per pin, created on first use in the browser (never during server rendering).
 */
import { createNenClient, type NenClient } from '@nen/client';

export const MAX_EXCHANGES = 8;
export const MAX_CHUNKS = 10;
const HEX_BYTES = 24;

export interface RawChunk {
  /** Position of this chunk in its exchange (0-based). */
  readonly seq: number;
  readonly bytes: number;
  readonly hex: string;
}

export interface RawExchange {
  readonly id: number;
  readonly method: string;
  readonly path: string;
  readonly requestBytes: number;
  readonly requestHex: string;
  readonly status: number | null;
  readonly chunks: readonly RawChunk[];
  readonly chunkCount: number;
  readonly responseBytes: number;
  readonly done: boolean;
}

let exchanges: readonly RawExchange[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const EMPTY: readonly RawExchange[] = [];

function publish(next: readonly RawExchange[]): void {
  exchanges = next.slice(-MAX_EXCHANGES);
  for (const l of listeners) l();
}

function update(id: number, change: (e: RawExchange) => RawExchange): void {
  publish(exchanges.map((e) => (e.id === id ? change(e) : e)));
}

export const rawWire = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): readonly RawExchange[] => exchanges,
  getServerSnapshot: (): readonly RawExchange[] => EMPTY,
};

function hex(b: Uint8Array): string {
  let s = '';
  for (const x of b.subarray(0, HEX_BYTES)) s += x.toString(16).padStart(2, '0');
  return (s.match(/.{1,4}/g) ?? []).join(' ');
}

/** The transport under the Nen client: a real fetch, with every byte counted on its way. */
const tappedFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, location.href);
  const body = init?.body instanceof Uint8Array ? init.body : null;
  const id = nextId++;
  publish([
    ...exchanges,
    {
      id,
      method: init?.method ?? 'GET',
      path: url.pathname,
      requestBytes: body?.length ?? 0,
      requestHex: body ? hex(body) : '',
      status: null,
      chunks: [],
      chunkCount: 0,
      responseBytes: 0,
      done: false,
    },
  ]);
  const res = await fetch(input, init);
  update(id, (e) => ({ ...e, status: res.status }));
  if (!res.body) {
    update(id, (e) => ({ ...e, done: true }));
    return res;
  }
  const tapped = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, c) {
        update(id, (e) => ({
          ...e,
          chunks: [...e.chunks, { seq: e.chunkCount, bytes: chunk.length, hex: hex(chunk) }].slice(-MAX_CHUNKS),
          chunkCount: e.chunkCount + 1,
          responseBytes: e.responseBytes + chunk.length,
        }));
        c.enqueue(chunk);
      },
      flush() {
        update(id, (e) => ({ ...e, done: true }));
      },
    }),
  );
  return new Response(tapped, { status: res.status, statusText: res.statusText, headers: res.headers });
};

let client: NenClient | null = null;
let clientPin: string | undefined;

/** The assistant's Nen client; `serverKey` pins the server when given. */
export function assistantClient(serverKey?: string): NenClient {
  if (client && clientPin === serverKey) return client;
  clientPin = serverKey;
  client = createNenClient({ ...(serverKey ? { serverKey } : {}), timeoutMs: 30_000, fetch: tappedFetch });
  return client;
}
