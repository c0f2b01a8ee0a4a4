/**
 * The rows a NenSessionObject keeps in its Durable Object storage (./session-object.ts), through
 * the SQLite storage API (`state.storage.sql`): two tables, one row per session (live or
 * tombstone) and one per claim. `sqlRows` is the only module that speaks SQL.
 *
 * Why the SQL API (and not the key-value `get/put`): `sql.exec` is synchronous, so a commit's
 * check (in memory) and its write follow each other with no `await` at all — nothing can
 * interleave. Each write is one statement on one row (atomic on its own), and the output gate
 * holds the answer until it is durable. It is also what a SQLite-backed class (`new_sqlite_classes`,
 * Cloudflare's recommended backend) offers; workerd serves it with `enableSql = true`.
 *
 * Pitfalls:
 *  - SQLite has no unsigned 64-bit integer: the highest sequence number is stored as decimal text.
 *  - BLOBs are bound as ArrayBuffer and come back as ArrayBuffer (copied out here).
 *  - The window bitmap is the ReplayWindow's Uint32Array bytes (little-endian on every platform
 *    workerd runs on); its length is checked when read back.
 */

/** One session as stored. `secret` is the stored form: wrapped under NEN_STORE_KEY, or raw; null for a tombstone. */
export interface SessionRow {
  id: string;
  /** JSON of the record's other fields (meta, epoch, createdAt, expiresAt, idleTimeoutMs, confirmBy). */
  fields: string;
  secret: Uint8Array | null;
  wrapped: boolean;
  lastSeenAt: number;
  highest: string;
  bits: Uint8Array;
  /** 0 while alive; else the tombstone's end. */
  deadUntil: number;
  /** When the row next needs the sweep (death, or the tombstone's end): the alarm is set from it. */
  nextAt: number;
}

export interface ClaimRow {
  key: string;
  until: number;
}

/** The storage operations of one object (synchronous: see the module header). */
export interface SessionRows {
  sessions(): SessionRow[];
  claims(): ClaimRow[];
  putSession(row: SessionRow): void;
  deleteSession(id: string): void;
  putClaim(row: ClaimRow): void;
  deleteClaim(key: string): void;
}

/** The part of `state.storage.sql` used here (structural: no Workers types needed). */
export interface SqlStorageLike {
  exec(query: string, ...bindings: (string | number | ArrayBuffer | null)[]): { toArray(): Record<string, unknown>[] };
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS nen_sessions (id TEXT PRIMARY KEY, fields TEXT NOT NULL, secret BLOB, wrapped INTEGER NOT NULL,
     last_seen INTEGER NOT NULL, highest TEXT NOT NULL, bits BLOB NOT NULL, dead_until INTEGER NOT NULL, next_at INTEGER NOT NULL)`,
  'CREATE TABLE IF NOT EXISTS nen_claims (key TEXT PRIMARY KEY, until INTEGER NOT NULL)',
];

const buf = (b: Uint8Array): ArrayBuffer => b.slice().buffer as ArrayBuffer;
const bytes = (v: unknown): Uint8Array | null =>
  v instanceof ArrayBuffer ? new Uint8Array(v.slice(0)) : ArrayBuffer.isView(v) ? new Uint8Array(v.buffer.slice(0)) : null;

/** Rows over the SQLite storage API; creates its tables on first use. */
export function sqlRows(sql: SqlStorageLike): SessionRows {
  for (const s of SCHEMA) sql.exec(s);
  return {
    sessions: () =>
      sql
        .exec('SELECT * FROM nen_sessions ORDER BY last_seen')
        .toArray()
        .map((r) => ({
          id: String(r.id),
          fields: String(r.fields),
          secret: bytes(r.secret),
          wrapped: Number(r.wrapped) === 1,
          lastSeenAt: Number(r.last_seen),
          highest: String(r.highest),
          bits: bytes(r.bits) ?? new Uint8Array(0),
          deadUntil: Number(r.dead_until),
          nextAt: Number(r.next_at),
        })),
    claims: () =>
      sql
        .exec('SELECT key, until FROM nen_claims')
        .toArray()
        .map((r) => ({ key: String(r.key), until: Number(r.until) })),
    putSession: (r) =>
      void sql.exec(
        'INSERT OR REPLACE INTO nen_sessions (id, fields, secret, wrapped, last_seen, highest, bits, dead_until, next_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        r.id,
        r.fields,
        r.secret ? buf(r.secret) : null,
        r.wrapped ? 1 : 0,
        r.lastSeenAt,
        r.highest,
        buf(r.bits),
        r.deadUntil,
        r.nextAt,
      ),
    deleteSession: (id) => void sql.exec('DELETE FROM nen_sessions WHERE id = ?', id),
    putClaim: (c) => void sql.exec('INSERT OR REPLACE INTO nen_claims (key, until) VALUES (?, ?)', c.key, c.until),
    deleteClaim: (key) => void sql.exec('DELETE FROM nen_claims WHERE key = ?', key),
  };
}
