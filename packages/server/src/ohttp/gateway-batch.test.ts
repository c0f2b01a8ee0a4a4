/**
 * The gateway's decapsulation batches (./batch.ts) through `createNen().ohttpGateway()`: requests
 * that arrive together (a busy gateway) are decapsulated back to back at the end of the turn, and
 * each still gets exactly its own answer: its own body echoed, sealed to its own client context,
 * a tampered or unknown-key request among them refused alone (its handler never runs), a replay
 * inside one batch refused. With `batchWithinMs: 0` the same requests run inline.
 */
import { OHTTP_KEM, OhttpGatewayKeys, decodeBhttpResponse, encapsulateRequest, encodeBhttpRequest, generateOhttpKey } from '@nen/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createNen } from '../nen.js';
import { memoryStore } from '../stores/memory.js';
import { inner } from '../../test/ohttp-inner.js';

const keys = OhttpGatewayKeys.parse(`${generateOhttpKey(1, OHTTP_KEM.XWING)},${generateOhttpKey(2, OHTTP_KEM.X25519)}`);
const nen = createNen({ store: memoryStore(), serverKeys: undefined });
const ran: unknown[] = [];
const echo = nen.withNen(async (_req, _ctx, body) => {
  ran.push(body);
  return { echo: body };
});
afterAll(() => nen.close());
const dec = new TextDecoder();

function request(body: Uint8Array): Request {
  return new Request('https://gw.example/.well-known/ohttp-gateway', {
    method: 'POST',
    headers: { 'content-type': 'message/ohttp-req' },
    body: body as Uint8Array<ArrayBuffer>,
  });
}

describe.each([
  ['batched', 60_000],
  ['inline', 0],
])('OHTTP gateway decapsulation, %s', (_name, batchWithinMs) => {
  it('requests arriving together each get their own answer; a tampered, an unknown-key and a replayed one are refused alone', async () => {
    const gateway = nen.ohttpGateway({ keys, batchWithinMs, routes: { '/api/echo': { POST: echo } } });
    const configs = gateway.keys.configs();
    const cs = Array.from({ length: 12 }, (_, i) => encapsulateRequest(configs[i % 2]!, encodeBhttpRequest(inner('/api/echo', { i, batchWithinMs }))));
    const bodies = cs.map((c) => c.encapsulatedRequest);
    const tampered = bodies[3]!.slice();
    tampered[tampered.length - 1]! ^= 1;
    bodies[3] = tampered;
    const unknownKey = bodies[6]!.slice();
    unknownKey[0] = 9;
    bodies[6] = unknownKey;
    bodies.push(bodies[8]!); // the same request twice in one batch: one runs
    ran.length = 0;
    // the prepared Requests first, then every POST in one synchronous loop (one batch when batched)
    const requests = bodies.map(request);
    const answers = await Promise.all(requests.map((r) => gateway.POST(r)));
    expect(answers[3]!.status).toBe(400);
    expect(answers[3]!.headers.get('nen-error')).toBe('NEN_OHTTP_DECRYPT');
    expect(answers[6]!.status).toBe(400);
    expect(answers[6]!.headers.get('nen-error')).toBe('NEN_OHTTP_KEY_UNKNOWN');
    const inners = await Promise.all(
      answers.map(async (a, i) => (i === 3 || i === 6 ? null : decodeBhttpResponse(cs[i === 12 ? 8 : i]!.openResponse(new Uint8Array(await a.arrayBuffer()))))),
    );
    for (let i = 0; i < 12; i++) {
      if (i === 3 || i === 6) continue;
      expect(inners[i]!.status).toBe(200);
      expect(JSON.parse(dec.decode(inners[i]!.content))).toEqual({ echo: { i, batchWithinMs } });
    }
    expect(inners[12]!.status).toBe(409); // the replay, opened with its own (the first's) context
    expect(ran).toHaveLength(10);
    expect(new Set(ran.map((b) => (b as { i: number }).i))).toEqual(new Set([0, 1, 2, 4, 5, 7, 8, 9, 10, 11]));
  });
});
