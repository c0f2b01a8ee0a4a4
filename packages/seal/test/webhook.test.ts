/**
 * Sealed webhooks: Standard Webhooks HMAC checked by the `standardwebhooks` package, the
 * ML-DSA-65 option against a pinned sender key, and the receiver refusing forged, replayed,
 * stale, re-signed and swapped-body deliveries with stable codes — the handler never runs for
 * them (runs are counted). Replay across two receivers sharing a real redis-server.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MemoryReplayStore,
  NenSealError,
  createRedisReplayStore,
  generateWebhookSigningKey,
  sealWebhook,
  withNenWebhook,
  type SealedWebhook,
  type WebhookReceiverOptions,
} from '../src/index.js';
import { memoryStore } from '@nen/server';
import { pqKeyPair } from './helpers.js';
import { startRedis, type RedisServer } from './redis.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
const sender = generateWebhookSigningKey();
const intruder = generateWebhookSigningKey();
const payload = { event: 'invoice.paid', amount: 4200 };

let receiver: Awaited<ReturnType<typeof pqKeyPair>>;
beforeAll(async () => {
  receiver = await pqKeyPair();
});

const toRequest = (w: { body: string; headers: Record<string, string> }) =>
  new Request('http://127.0.0.1/api/hooks', { method: 'POST', body: w.body, headers: w.headers });

function route(extra: Partial<WebhookReceiverOptions> = {}) {
  const runs: unknown[] = [];
  const handler = withNenWebhook(
    async (p, ctx) => {
      runs.push(p.json());
      return { ok: true, id: ctx.id };
    },
    { identity: receiver.identity, hmacSecret: secret, store: new MemoryReplayStore(), ...extra },
  );
  return { handler, runs };
}

async function refusal(res: Response) {
  return { status: res.status, code: ((await res.json()) as { error: string }).error };
}

describe('sealWebhook (sender)', () => {
  it('the v1 HMAC signature verifies with the standardwebhooks package; the body is sealed', async () => {
    const w = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret });
    expect(w.body.startsWith('-----BEGIN AGE ENCRYPTED FILE-----')).toBe(true);
    expect(w.body).not.toContain('invoice');
    expect(() => new Webhook(secret).verify(w.body, w.headers, { jsonParse: false })).not.toThrow();
    expect(() => new Webhook(otherSecret).verify(w.body, w.headers, { jsonParse: false })).toThrow();
    // Same bytes as the reference signer for the same id / timestamp / body.
    const ref = new Webhook(secret).sign(w.id, new Date(w.timestamp * 1000), w.body);
    expect(w.headers['webhook-signature']).toBe(ref);
  });

  it('with both HMAC and ML-DSA-65, standard verifiers still accept (unknown versions skipped)', async () => {
    const w = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret, mldsaSecretKey: sender.secretKey });
    expect(w.headers['webhook-signature']?.split(' ').map((s) => s.split(',')[0])).toEqual(['v1', 'nen-mldsa65']);
    expect(() => new Webhook(secret).verify(w.body, w.headers, { jsonParse: false })).not.toThrow();
  });
});

describe('withNenWebhook (receiver)', () => {
  it('accepts a valid delivery once and opens the body', async () => {
    const { handler, runs } = route();
    const w = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret });
    const res = await handler(toRequest(w));
    expect(res.status).toBe(200);
    expect(runs).toEqual([payload]);
  });

  it('refuses forged, replayed, stale, re-signed and swapped-body deliveries; the handler never runs for them', async () => {
    const { handler, runs } = route();
    const good = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret });
    const other = await sealWebhook({ event: 'other' }, { recipients: receiver.recipient, hmacSecret: secret });
    const forged = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: otherSecret });
    const stale = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret }, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    const future = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret }, { timestamp: Math.floor(Date.now() / 1000) + 600 });
    // Re-signed: a captured body under a fresh id / timestamp, signed with the attacker's own secret.
    const resigned: SealedWebhook = {
      ...good,
      headers: { ...good.headers, 'webhook-id': 'msg_new', 'webhook-signature': new Webhook(otherSecret).sign('msg_new', new Date(), good.body) },
    };
    const swapped = { body: other.body, headers: good.headers };
    const noHeaders = { body: good.body, headers: { 'webhook-id': good.id } };

    expect(await refusal(await handler(toRequest(forged)))).toEqual({ status: 401, code: 'NEN_SEAL_WEBHOOK_SIGNATURE' });
    expect(await refusal(await handler(toRequest(stale)))).toEqual({ status: 401, code: 'NEN_SEAL_WEBHOOK_TIMESTAMP' });
    expect(await refusal(await handler(toRequest(future)))).toEqual({ status: 401, code: 'NEN_SEAL_WEBHOOK_TIMESTAMP' });
    expect(await refusal(await handler(toRequest(resigned)))).toEqual({ status: 401, code: 'NEN_SEAL_WEBHOOK_SIGNATURE' });
    expect(await refusal(await handler(toRequest(swapped)))).toEqual({ status: 401, code: 'NEN_SEAL_WEBHOOK_SIGNATURE' });
    expect(await refusal(await handler(toRequest(noHeaders)))).toEqual({ status: 400, code: 'NEN_SEAL_WEBHOOK_HEADERS' });
    expect(runs.length).toBe(0);
    expect((await handler(toRequest(good))).status).toBe(200);
    expect(await refusal(await handler(toRequest(good)))).toEqual({ status: 409, code: 'NEN_SEAL_WEBHOOK_REPLAY' });
    expect(runs.length).toBe(1);
  });

  it('oversized bodies (413 NEN_SEAL_LIMIT) and malformed timestamps (400) are refused before any crypto', async () => {
    const { handler, runs } = route({ maxBodyBytes: 1000 });
    const big = await sealWebhook({ blob: 'x'.repeat(5000) }, { recipients: receiver.recipient, hmacSecret: secret });
    expect(await refusal(await handler(toRequest(big)))).toEqual({ status: 413, code: 'NEN_SEAL_LIMIT' });
    const w = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret });
    for (const ts of ['12.5', '-5', '0x10', '']) {
      const bad = { body: w.body, headers: { ...w.headers, 'webhook-timestamp': ts } };
      expect(await refusal(await handler(toRequest(bad)))).toEqual({ status: 400, code: 'NEN_SEAL_WEBHOOK_HEADERS' });
    }
    expect(runs.length).toBe(0);
  });

  it('a malformed webhook-signature is 400 NEN_SEAL_WEBHOOK_HEADERS (as ERROR_CODES.md says), a well-formed wrong one 401', async () => {
    const { handler, runs } = route();
    const w = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret });
    const malformed = ['garbage', 'v1', 'v1,', ',AAAA', 'v1,not base64!', `${w.headers['webhook-signature']} junk`, '   ', `v1,${'A'.repeat(20_000)}`];
    for (const sig of malformed) {
      const bad = { body: w.body, headers: { ...w.headers, 'webhook-signature': sig } };
      expect(await refusal(await handler(toRequest(bad))), sig.slice(0, 40)).toEqual({ status: 400, code: 'NEN_SEAL_WEBHOOK_HEADERS' });
    }
    const wrong = { body: w.body, headers: { ...w.headers, 'webhook-signature': `v1,${randomBytes(32).toString('base64')}` } };
    expect(await refusal(await handler(toRequest(wrong)))).toEqual({ status: 401, code: 'NEN_SEAL_WEBHOOK_SIGNATURE' });
    // Unknown versions and extra spaces are tolerated (standard verifiers skip them).
    const extra = { body: w.body, headers: { ...w.headers, 'webhook-signature': `v9,AAAA  ${w.headers['webhook-signature']}` } };
    expect((await handler(toRequest(extra))).status).toBe(200);
    expect(runs.length).toBe(1);
  });

  it('a correctly signed body sealed to another key is refused (NEN_SEAL_WEBHOOK_BODY)', async () => {
    const { handler, runs } = route();
    const elsewhere = await pqKeyPair();
    const w = await sealWebhook(payload, { recipients: elsewhere.recipient, hmacSecret: secret });
    expect(await refusal(await handler(toRequest(w)))).toEqual({ status: 400, code: 'NEN_SEAL_WEBHOOK_BODY' });
    expect(runs.length).toBe(0);
  });

  it('ML-DSA-65: the pinned sender is accepted; another key, or HMAC only, is refused', async () => {
    const { handler, runs } = route({ hmacSecret: undefined, senderPublicKey: sender.publicKey });
    const ok = await sealWebhook(payload, { recipients: receiver.recipient, mldsaSecretKey: sender.secretKey });
    const bad = await sealWebhook(payload, { recipients: receiver.recipient, mldsaSecretKey: intruder.secretKey });
    const hmacOnly = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret });
    expect(await refusal(await handler(toRequest(bad)))).toEqual({ status: 401, code: 'NEN_SEAL_WEBHOOK_SIGNATURE' });
    expect(await refusal(await handler(toRequest(hmacOnly)))).toEqual({ status: 401, code: 'NEN_SEAL_WEBHOOK_SIGNATURE' });
    // The signature of one delivery does not cover another body.
    const swapped = { body: hmacOnly.body, headers: ok.headers };
    expect(await refusal(await handler(toRequest(swapped)))).toEqual({ status: 401, code: 'NEN_SEAL_WEBHOOK_SIGNATURE' });
    expect(runs.length).toBe(0);
    expect((await handler(toRequest(ok))).status).toBe(200);
    expect(runs.length).toBe(1);
  });

  it("uses @nen/server's session store (nen.store) for ids; a failing store refuses with 503", async () => {
    const store = memoryStore();
    const { handler, runs } = route({ store });
    const w = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret });
    expect((await handler(toRequest(w))).status).toBe(200);
    expect(await refusal(await handler(toRequest(w)))).toEqual({ status: 409, code: 'NEN_SEAL_WEBHOOK_REPLAY' });
    await store.close();
    const broken = route({ store: { claimOnce: () => Promise.reject(new Error('down')) } });
    const w2 = await sealWebhook(payload, { recipients: receiver.recipient, hmacSecret: secret });
    expect(await refusal(await broken.handler(toRequest(w2)))).toEqual({ status: 503, code: 'NEN_SEAL_UNAVAILABLE' });
    expect(runs.length + broken.runs.length).toBe(1);
  });

  it('needs at least one sender authentication', () => {
    expect(() => withNenWebhook(() => null, { identity: receiver.identity, store: new MemoryReplayStore() })).toThrow(NenSealError);
  });
});

describe('replay stores', () => {
  it('memory store: bounded, expiry reclaims slots, refuses rather than forgets', async () => {
    let t = 0;
    const s = new MemoryReplayStore(2, () => t);
    expect(await s.claimOnce('a', 100)).toBe(true);
    expect(await s.claimOnce('a', 100)).toBe(false);
    expect(await s.claimOnce('b', 100)).toBe(true);
    await expect(s.claimOnce('c', 100)).rejects.toMatchObject({ code: 'NEN_SEAL_UNAVAILABLE' });
    t = 101;
    expect(await s.claimOnce('c', 100)).toBe(true);
    expect(await s.claimOnce('a', 100)).toBe(true);
    expect(s.size).toBe(2);
  });

  describe('Redis (real redis-server)', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('two receivers sharing Redis accept a delivery sent to both at once exactly once', async () => {
      const a = await createRedisReplayStore(redis.url);
      const b = await createRedisReplayStore(redis.url);
      try {
        const r1 = route({ store: a.store });
        const r2 = route({ store: b.store });
        for (let i = 0; i < 5; i++) {
          const w = await sealWebhook({ i }, { recipients: receiver.recipient, hmacSecret: secret });
          const statuses = (await Promise.all([r1.handler(toRequest(w)), r2.handler(toRequest(w))])).map((r) => r.status).sort();
          expect(statuses).toEqual([200, 409]);
        }
        expect(r1.runs.length + r2.runs.length).toBe(5);
        // The claim expires on Redis's clock: b is refused while it lives and gets it once it has
        // gone, polled with a deadline (a 50 ms claim and a 120 ms sleep raced each other under load; 1 s leaves b room).
        const t0 = Date.now();
        expect(await a.store.claimOnce('ttl-test', 1000)).toBe(true);
        expect(await b.store.claimOnce('ttl-test', 1000)).toBe(false);
        const deadline = t0 + 10_000;
        while (!(await b.store.claimOnce('ttl-test', 1000))) {
          expect(Date.now(), 'the claim did not expire within 10 s').toBeLessThan(deadline);
          await new Promise((r) => setTimeout(r, 25));
        }
        expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
});
