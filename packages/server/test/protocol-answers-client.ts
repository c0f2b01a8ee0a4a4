/**
 * The minimal independent client of protocol-answers.test.ts: built only from the wire codec
 * (handshake, AAD, AEAD, records), as an implementation in another language would be, against
 * real `createNen()` route handlers on a settable clock; and the expected answers, read from the
 * `answers` section of packages/core/src/protocol/worked-example.vectors.json.
 * Pitfall: sequence numbers are the caller's (Session.seq); reuse one and the server answers 409.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import {
  type Backend,
  KEM_ID,
  RecordSealer,
  SessionKeys,
  clientHandshakeStart,
  decodeHeaderRecord,
  formatRequestHeader,
  loadBackend,
  openMessage,
  packConfidentialQuery,
  parseServerKeyPin,
  requestAad,
  responseAad,
  sealMessage,
  toBase64Url,
} from '@nen/core';
import { createNen, memoryStore, type Nen } from '../src/index.js';

export interface Expected {
  request: string;
  status: number;
  code: string;
}
export interface Answers {
  refusals: Expected[];
  handshakeRefusals: Expected[];
  lifetime: { serverMaximum: number; grants: { requested: number; granted: number }[] };
  status: { fields: Record<string, string> };
  keys: { item: Record<string, string> };
  bodilessResponses: { contentType: string };
  rotateUnderPreviousEpochInGrace: { status: number; code: string; sequenceNumberConsumed: boolean };
  streams: {
    uploadWithoutFinalRecord: {
      beforeFirstRecord: { status: number; code: string };
      afterFirstRecord: { status: number; handlerBodyError: string; body: unknown };
    };
  };
}
export const ANSWERS = (
  JSON.parse(readFileSync(new URL('../../core/src/protocol/worked-example.vectors.json', import.meta.url), 'utf8')) as { answers: Answers }
).answers;
export const REFUSALS = ANSWERS.refusals;
export const HANDSHAKE_REFUSALS = ANSWERS.handshakeRefusals;

/** Checks `got` (request name → response) against the expected list, names included. */
export async function checkAll(expected: Expected[], got: Map<string, () => Promise<Response>>): Promise<void> {
  expect([...got.keys()].sort()).toEqual(expected.map((e) => e.request).sort());
  for (const e of expected) {
    const res = await got.get(e.request)!();
    expect(await wireError(res), e.request).toEqual({ status: e.status, code: e.code });
  }
}

export const SEED = toBase64Url(new Uint8Array(32).map((_, i) => i + 1));
export const ORIGIN = 'http://127.0.0.1:3000';
export const enc = new TextEncoder();
export const dec = new TextDecoder();

export interface Session {
  id: Uint8Array;
  sid: string;
  epoch: number;
  keys: SessionKeys;
  secret: Uint8Array;
  seq: bigint;
  lifetime: number;
  idle: number;
  serverTime: number;
}

export interface Server {
  be: Backend;
  nen: Nen;
  pin: string;
  clock: { now: number };
  route: (r: Request) => Promise<Response>;
  streamRoute: (r: Request) => Promise<Response>;
  runs: { n: number };
  seen: { url: string; body: string; error: string | null }[];
}

export async function server(extra: Parameters<typeof createNen>[0] = {}): Promise<Server> {
  const be = await loadBackend('noble');
  const clock = { now: 1_767_225_600_000 };
  const nen = createNen({
    backend: be,
    store: memoryStore({ shared: false }),
    serverKeys: `k1:${SEED}`,
    handshakeRateLimit: 0,
    now: () => clock.now,
    logger: () => {},
    sessionTtlSeconds: 600,
    idleTimeoutSeconds: 120,
    ...extra,
  });
  const pin = (await nen.publicKeys())[0]!.pin;
  const runs = { n: 0 };
  const seen: Server['seen'] = [];
  const handler = nen.withNen(async (req: Request, _c: unknown, body: unknown) => {
    runs.n++;
    if (body instanceof ReadableStream) {
      // A streamed upload: the handler reads plaintext chunks; a broken upload errors the stream.
      let text = '';
      try {
        const reader = (body as ReadableStream<Uint8Array>).getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) text += dec.decode(r.value, { stream: true });
      } catch (e) {
        seen.push({ url: req.url, body: text, error: (e as { code?: string }).code ?? String(e) });
        throw e;
      }
      seen.push({ url: req.url, body: text, error: null });
      return { got: text };
    }
    seen.push({ url: req.url, body: '', error: null });
    if (req.method === 'DELETE') return new Response(null, { status: 204 });
    return { url: req.url };
  });
  const streamRoute = nen.withNenStream(async function* () {
    runs.n++;
    yield 'data: x\n\n';
  });
  return { be, nen, pin, clock, route: (r) => handler(r, {}), streamRoute: (r) => streamRoute(r, {}), runs, seen };
}

export async function handshake(s: Server, o: { lifetime?: number; pinned?: boolean } = {}): Promise<Session> {
  const st = clientHandshakeStart(s.be, { ...(o.pinned === false ? { kem: KEM_ID.XWING } : { pin: parseServerKeyPin(s.pin) }), lifetime: o.lifetime ?? 0 });
  const res = await s.nen.routes.POST(
    new Request(`${ORIGIN}/api/nen/handshake`, {
      method: 'POST',
      headers: { 'content-type': 'application/nen-handshake' },
      body: st.hello as Uint8Array<ArrayBuffer>,
    }),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/nen-handshake');
  const r = st.finish(new Uint8Array(await res.arrayBuffer()));
  return {
    id: r.sessionId,
    sid: toBase64Url(r.sessionId),
    epoch: 0,
    keys: new SessionKeys(s.be, r.secret, 0),
    secret: r.secret,
    seq: 0n,
    lifetime: r.lifetime,
    idle: r.idleTimeout,
    serverTime: r.serverTime,
  };
}

export interface Sealed {
  request: Request;
  seq: bigint;
  epoch: number;
}

/** A sealed request as PROTOCOL.md §5 builds it (the path + query is `target`, already canonical here). */
export function seal(
  s: Server,
  ses: Session,
  method: string,
  target: string,
  o: {
    type?: string;
    body?: Uint8Array;
    flags?: number;
    query?: string;
    headers?: Record<string, string>;
    stream?: Uint8Array[] | 'no-final' | 'partial-first';
    seq?: bigint;
  } = {},
): Sealed {
  const seq = o.seq ?? ++ses.seq;
  const flags = o.flags ?? 0;
  const meta = { sessionId: ses.id, epoch: ses.epoch, seq, timestamp: s.clock.now, flags };
  const type = o.type ?? '';
  const aad = requestAad(meta, method, target, type);
  const headers: Record<string, string> = { nen: formatRequestHeader(meta), ...(type ? { 'nen-type': type } : {}) };
  let body: BodyInit | undefined;
  let duplex = false;
  if (o.stream) {
    const sealer = new RecordSealer(ses.keys.c2s, ses.keys.c2sIv, seq, aad);
    const chunks = o.stream === 'no-final' ? [enc.encode('part one ')] : o.stream === 'partial-first' ? [] : o.stream;
    const parts = chunks.map((c) => sealer.seal(c, false));
    if (o.stream === 'partial-first') parts.push(sealer.seal(enc.encode('abc'), false).subarray(0, 10));
    else if (o.stream !== 'no-final') parts.push(sealer.seal(new Uint8Array(0), true));
    body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(p);
        c.close();
      },
    });
    duplex = true;
    headers['content-type'] = 'application/nen-stream';
  } else {
    const plain = o.query !== undefined ? packConfidentialQuery(o.query, o.body ?? new Uint8Array(0)) : (o.body ?? new Uint8Array(0));
    const record = sealMessage(ses.keys.c2s, ses.keys.c2sIv, seq, aad, plain);
    if (method === 'GET' || method === 'HEAD') headers['nen-body'] = toBase64Url(record);
    else {
      headers['content-type'] = 'application/nen';
      body = record as Uint8Array<ArrayBuffer>;
    }
  }
  const init: RequestInit & { duplex?: 'half' } = {
    method,
    headers: { ...headers, ...o.headers },
    ...(body !== undefined ? { body } : {}),
    ...(duplex ? { duplex: 'half' } : {}),
  };
  return { request: new Request(`${ORIGIN}${target}`, init), seq, epoch: ses.epoch };
}

/** Opens a sealed (non-stream) response as PROTOCOL.md §5.2 says a client must. */
export async function open(ses: Session, sent: Sealed, res: Response): Promise<{ status: number; type: string; plain: Uint8Array; flags: number }> {
  const m = /^1\.([0-9])$/.exec(res.headers.get('nen') ?? '');
  expect(m, `sealed response, got ${res.status} ${res.headers.get('nen-error')}`).not.toBeNull();
  const flags = Number(m![1]);
  const type = res.headers.get('nen-type') ?? '';
  const hb = res.headers.get('nen-body');
  const record = hb !== null ? decodeHeaderRecord(hb)! : new Uint8Array(await res.arrayBuffer());
  expect(sent.epoch).toBe(ses.epoch); // a response is sealed under the keys of its request's epoch
  const aad = responseAad(ses.id, sent.epoch, sent.seq, res.status, flags, type);
  return { status: res.status, type, flags, plain: openMessage(ses.keys.s2c, ses.keys.s2cIv, sent.seq, aad, record) };
}

export async function openJson(ses: Session, sent: Sealed, res: Response): Promise<Record<string, unknown>> {
  const r = await open(ses, sent, res);
  expect(r.type).toBe('application/json');
  return JSON.parse(dec.decode(r.plain)) as Record<string, unknown>;
}

/** An unauthenticated protocol error (PROTOCOL.md §7). */
export async function wireError(res: Response): Promise<{ status: number; code: string | null }> {
  const code = res.headers.get('nen-error');
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('nen')).toBeNull();
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.message).toMatch(/^nen: /);
  return { status: res.status, code };
}
