/**
 * Notes in Redis (ioredis), used when REDIS_URL is set, so several demo instances behind one load
 * balancer see the same notes (the Nen sessions are shared through @nen/server's Redis store).
 *
 * Layout: one string key per note (`nen-demo:{notes}:note:<id>`, JSON) and one sorted set of ids
 * scored by `updatedAt` (`nen-demo:{notes}:index`). The `{notes}` hash tag keeps every key in one
 * Redis Cluster slot, so the create script may touch all of them.
 *
 * Pitfalls:
 *  - Bounded: the create script trims the index to MAX_NOTES, deleting the evicted notes.
 *  - Fails fast when Redis is down (no offline queue, no retries, command timeout): the routes turn
 *    the error into a 503 instead of hanging.
 *  - Update is read-modify-write without a lock: concurrent edits of one note are last-writer-wins.
 */
import { randomBytes } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { MAX_LIST, MAX_NOTES, type Note, type NoteInput, type NotesRepo } from './notes-model';

const PREFIX = 'nen-demo:{notes}:';
const INDEX = `${PREFIX}index`;
const noteKey = (id: string) => `${PREFIX}note:${id}`;

/** KEYS[1] index, KEYS[2] note key; ARGV: id, json, score, max, note key prefix. Returns evicted count. */
const CREATE_LUA = `
redis.call('SET', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
local n = redis.call('ZCARD', KEYS[1])
local max = tonumber(ARGV[4])
local evicted = 0
if n > max then
  local old = redis.call('ZPOPMIN', KEYS[1], n - max)
  for i = 1, #old, 2 do
    redis.call('DEL', ARGV[5] .. old[i])
    evicted = evicted + 1
  end
end
return evicted
`;

function connect(url: string): Redis | Cluster {
  const common = { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 2000, connectTimeout: 2000, lazyConnect: false } as const;
  const urls = url
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (urls.length > 1) {
    return new Cluster(
      urls.map((u) => {
        const p = new URL(u);
        return { host: p.hostname, port: Number(p.port || 6379) };
      }),
      { enableOfflineQueue: false, redisOptions: common },
    );
  }
  const client = new Redis(urls[0] ?? url, common);
  client.on('error', () => undefined); // reported per command; ioredis reconnects by itself
  return client;
}

/** How long a command waits for a (re)connection before failing (no offline queue: fail, never pile up). */
const READY_TIMEOUT_MS = 2000;

export class RedisNotes implements NotesRepo {
  readonly kind = 'redis';
  readonly #client: Redis | Cluster;
  /** One shared wait for the next 'ready' event, so concurrent callers add a single listener. */
  #readyWait: Promise<void> | null = null;

  constructor(url: string) {
    this.#client = connect(url);
  }

  /** The client once connected; rejects after READY_TIMEOUT_MS while Redis is unreachable. */
  get #redis(): Promise<Redis | Cluster> {
    const client = this.#client;
    if (client.status === 'ready') return Promise.resolve(client);
    this.#readyWait ??= new Promise<void>((resolve) => {
      client.once('ready', () => {
        this.#readyWait = null;
        resolve();
      });
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis not ready within ${READY_TIMEOUT_MS} ms (status ${client.status})`)), READY_TIMEOUT_MS);
      timer.unref();
      void this.#readyWait!.then(() => {
        clearTimeout(timer);
        resolve(client);
      });
    });
  }

  async size(): Promise<number> {
    return (await this.#redis).zcard(INDEX);
  }

  async list(query = '', limit = MAX_LIST): Promise<Note[]> {
    const q = query.trim().toLowerCase();
    const ids = await (await this.#redis).zrevrange(INDEX, 0, MAX_NOTES - 1);
    const out: Note[] = [];
    for (let i = 0; i < ids.length && out.length < limit; i += 100) {
      const chunk = ids.slice(i, i + 100);
      const values = await (await this.#redis).mget(...chunk.map(noteKey));
      for (const v of values) {
        if (v === null || out.length >= limit) continue;
        const note = JSON.parse(v) as Note;
        if (q === '' || note.title.toLowerCase().includes(q) || note.body.toLowerCase().includes(q)) out.push(note);
      }
    }
    return out;
  }

  async get(id: string): Promise<Note | undefined> {
    const v = await (await this.#redis).get(noteKey(id));
    return v === null ? undefined : (JSON.parse(v) as Note);
  }

  async create(input: NoteInput, now = Date.now()): Promise<Note> {
    const note: Note = { id: randomBytes(9).toString('base64url'), title: input.title, body: input.body, createdAt: now, updatedAt: now };
    await (await this.#redis).eval(CREATE_LUA, 2, INDEX, noteKey(note.id), note.id, JSON.stringify(note), String(now), String(MAX_NOTES), `${PREFIX}note:`);
    return note;
  }

  async update(id: string, patch: Partial<NoteInput>, now = Date.now()): Promise<Note | undefined> {
    const note = await this.get(id);
    if (!note) return undefined;
    if (patch.title !== undefined) note.title = patch.title;
    if (patch.body !== undefined) note.body = patch.body;
    note.updatedAt = now;
    const ok = await (await this.#redis).set(noteKey(id), JSON.stringify(note), 'XX');
    if (ok === null) return undefined; // deleted meanwhile
    await (await this.#redis).zadd(INDEX, 'XX', now, id);
    return note;
  }

  async delete(id: string): Promise<boolean> {
    const redis = await this.#redis;
    const [deleted] = await Promise.all([redis.del(noteKey(id)), redis.zrem(INDEX, id)]);
    return deleted === 1;
  }

  async close(): Promise<void> {
    await this.#client.quit().catch(() => this.#client.disconnect());
  }
}
