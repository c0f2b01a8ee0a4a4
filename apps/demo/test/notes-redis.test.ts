/**
 * The Redis notes repository against a real redis-server (started on a free loopback port and
 * stopped here): CRUD, search, the MAX_NOTES bound enforced by the create script, and a fast
 * failure (no hang) once Redis is gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisNotes } from '../lib/notes-redis';
import { MAX_NOTES } from '../lib/notes';
import { freePort } from './live';

let redis: ChildProcess | undefined;
let url = '';
let repo: RedisNotes | undefined;

async function stopRedis(): Promise<void> {
  if (!redis || redis.exitCode !== null || redis.signalCode !== null) return;
  const exited = new Promise((r) => redis!.once('exit', r));
  redis.kill('SIGTERM');
  const timer = setTimeout(() => redis?.kill('SIGKILL'), 5000);
  timer.unref();
  await exited;
  clearTimeout(timer);
}

async function startRedis(port: number): Promise<void> {
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  redis.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  const deadline = Date.now() + 10_000;
  while (!/Ready to accept connections/i.test(log)) {
    if (Date.now() > deadline || redis.exitCode !== null) throw new Error(`redis-server did not start:\n${log}`);
    await sleep(50);
  }
}

let port = 0;

beforeAll(async () => {
  port = await freePort();
  url = `redis://127.0.0.1:${port}`;
  await startRedis(port);
  repo = new RedisNotes(url);
});

afterAll(async () => {
  await repo?.close();
  await stopRedis();
});

describe('RedisNotes', () => {
  it('creates, reads, updates, searches and deletes', async () => {
    const r = repo!;
    const a = await r.create({ title: 'Alpha', body: 'first body' }, 1000);
    const b = await r.create({ title: 'Beta', body: 'mentions ALPHA too' }, 2000);
    expect((await r.get(a.id))?.title).toBe('Alpha');
    expect((await r.list('alpha')).map((n) => n.id)).toEqual([b.id, a.id]);
    expect((await r.list('beta')).map((n) => n.id)).toEqual([b.id]);
    expect((await r.update(a.id, { body: 'changed' }, 3000))?.body).toBe('changed');
    expect((await r.list('')).map((n) => n.id).slice(0, 2)).toEqual([a.id, b.id]);
    expect(await r.delete(a.id)).toBe(true);
    expect(await r.delete(a.id)).toBe(false);
    expect(await r.get(a.id)).toBeUndefined();
    expect(await r.update(a.id, { title: 'x' })).toBeUndefined();
    expect(await r.delete(b.id)).toBe(true);
  });

  it('stays bounded: the create script evicts the least recently updated notes and their keys', async () => {
    const r = repo!;
    const first = await r.create({ title: 'first', body: '' }, 1);
    for (let i = 0; i < MAX_NOTES + 5; i++) await r.create({ title: `n${i}`, body: '' }, 10 + i);
    expect(await r.size()).toBe(MAX_NOTES);
    expect(await r.get(first.id)).toBeUndefined();
    expect((await r.list('', 5000)).length).toBe(MAX_NOTES);
  }, 60_000);

  it('fails fast, without hanging, when Redis is gone, and recovers by itself when it is back', async () => {
    await stopRedis();
    const started = Date.now();
    await expect(repo!.list('')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);

    await startRedis(port); // empty again: no persistence
    const deadline = Date.now() + 15_000;
    let size: number | null = null;
    while (size === null && Date.now() < deadline) {
      size = await repo!.size().catch(() => null);
      if (size === null) await sleep(200);
    }
    expect(size).toBe(0);
    const note = await repo!.create({ title: 'after the outage', body: '' });
    expect((await repo!.get(note.id))?.title).toBe('after the outage');
  }, 30_000);
});
