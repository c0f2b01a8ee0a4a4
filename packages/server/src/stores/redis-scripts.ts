/**
 * Lua scripts of the Redis session store, kept as TypeScript constants so the build needs no file
 * copying. Each script touches exactly one key, `<prefix>{<sessionId>}:s`, so it is Redis Cluster
 * safe (the `{…}` hash tag pins the key to one slot) and runs atomically (Redis executes a script
 * without interleaving other commands: two instances racing the same (id, seq) get exactly one ok).
 *
 * Session hash fields (short names keep `MEMORY USAGE` small):
 *   k  wrapped secret, first 64 bytes (binary, see redis.ts)   j  the rest of it (may be empty)
 *   m  meta (JSON)       e  epoch
 *   c  createdAt (ms)    x  expiresAt (ms)         i  idleTimeoutMs          l  lastSeenAt (ms)
 *   h  highest accepted seq, high 32 bits          g  highest accepted seq, low 32 bits
 *   u  confirmBy (ms): an unconfirmed session (no h yet) dies here
 * A confirmed session (h present) that dies keeps h, g, w, v as a tombstone (k, j deleted) for the
 * retry horizon (PROTOCOL.md "Retries"); its key TTL always covers death + the horizon.
 *   w, v  replay bitmap, REPLAY_WINDOW = 1024 bits = 128 bytes, as two 64-byte halves (absent
 *         until the first commit)
 * Every value stays within Redis' default `hash-max-listpack-value` (64 bytes) for secrets up to
 * 95 bytes and meta JSON up to 64 bytes, so the hash keeps the compact listpack encoding (about
 * half the memory of a hashtable-encoded hash; see the measured figure in redis.test.ts).
 *
 * Replay window (RFC 4303 §3.4.3 sliding window, kept as a ring bitmap in the manner of RFC 6479):
 * bit (seq mod 1024) records whether seq was accepted; with H the highest accepted seq, a seq is
 *   - "too-old" when seq + 1024 <= H (left of the window),
 *   - "replay"  when H - 1024 < seq <= H and its bit is set,
 *   - accepted  otherwise; if seq > H the bits of H+1 .. seq are cleared first (all bits when the
 *     jump is >= 1024) and H := seq. The first commit of a session accepts any seq >= 1.
 *   - seq 0 is never valid ("too-old"): sequence numbers start at 1, as in the TypeScript
 *     ReplayWindow of @nen/core (protocol/replay.ts) that the memory store uses.
 *
 * The rules (live, epoch, window, tombstones, retries) are those of the TypeScript steps the memory
 * store and the Durable Object table share (./commit.ts); test/rules-parity.test.ts plays the same
 * scenarios, at the exact instants where they could differ, on all three stores.
 *
 * Pitfalls:
 *  - Lua numbers are IEEE doubles (53-bit integers), but seq is unsigned 64-bit. The seq travels as
 *    two 32-bit halves; the distance (sh - hh) * 2^32 + (sl - hl) is exact whenever |distance| < 2^53
 *    and, when larger, rounding cannot change its sign nor bring it under 1024, so every decision
 *    is exact over the whole u64 range. seq mod 1024 = low half mod 1024 (2^32 is a multiple of 1024).
 *  - Values written back are the caller's ARGV strings, never Lua-formatted numbers (Lua's number to
 *    string conversion loses digits above 1e14).
 *  - Expiry decisions use the caller's clock (`now` argument) so every instance decides alike; key
 *    TTLs are relative (PEXPIRE) plus a grace period, so a Redis clock offset cannot expire a key
 *    early, and the logical check, not the TTL, is authoritative.
 */
import { createHash } from 'node:crypto';
import type { RetryVerdict } from './types.js';

/** How long a confirmed session's window outlives it (types.ts RETRY_HORIZON_MS), inlined in the scripts. */
const HORIZON = '120000';

/**
 * The replay window step shared by commit and consumeRetry: `mark(f, sh, sl)` with f[4], f[5] the
 * highest seq halves and f[6], f[7] the bitmap halves as read by HMGET. Returns 2 replay, 3
 * too-old, 0 corrupt, or 4 and the HSET field list that records seq.
 */
const WINDOW_FN = `
local W = 1024
local ZERO = string.rep(string.char(0), 64)
local function mark(f, sh, sl, shs, sls)
  if sh == 0 and sl == 0 then return 3 end
  local pos = sl % W
  local hh = tonumber(f[4])
  local hl = tonumber(f[5])
  -- the bitmap as its two 64-byte halves: slot p is bit (p % 8) of byte floor((p % 512) / 8) + 1
  -- of half 1 (p < 512) or half 2; single-bit updates rebuild one 64-byte string, not a table
  local half = {}
  local function slot(p)
    return (p < 512) and 1 or 2, math.floor((p % 512) / 8) + 1, 2 ^ (p % 8)
  end
  local function put(p, on)
    local n, j, m = slot(p)
    local h = half[n]
    local byte = string.byte(h, j)
    if on then byte = bit.bor(byte, m) else byte = bit.band(byte, 255 - m) end
    half[n] = string.sub(h, 1, j - 1) .. string.char(byte) .. string.sub(h, j + 1)
  end
  local advance = false
  if hh == nil or hl == nil then
    half[1] = ZERO
    half[2] = ZERO
    advance = true
  else
    if type(f[6]) ~= 'string' or type(f[7]) ~= 'string' or #f[6] ~= 64 or #f[7] ~= 64 then return 0 end
    half[1] = f[6]
    half[2] = f[7]
    local d = (sh - hh) * 4294967296 + (sl - hl)
    if d > 0 then
      advance = true
      -- clear the slots passed over (hl+1 .. seq-1); the slot of seq itself is set below
      if d >= W then
        half[1] = ZERO
        half[2] = ZERO
      elseif d <= 64 then
        for s = 1, d - 1 do put((hl + s) % W, false) end
      else
        local b = {string.byte(half[1] .. half[2], 1, 128)}
        for s = 1, d - 1 do
          local p = (hl + s) % W
          local j = math.floor(p / 8) + 1
          b[j] = bit.band(b[j], 255 - 2 ^ (p % 8))
        end
        local nw = string.char(unpack(b))
        half[1] = string.sub(nw, 1, 64)
        half[2] = string.sub(nw, 65, 128)
      end
    else
      if -d >= W then return 3 end
      local n, j, m = slot(pos)
      if bit.band(string.byte(half[n], j), m) ~= 0 then return 2 end
    end
  end
  put(pos, true)
  if advance then return 4, {'w', half[1], 'v', half[2], 'h', shs, 'g', sls} end
  if pos < 512 then return 4, {'w', half[1]} end
  return 4, {'v', half[2]}
end
`;

/**
 * commit: KEYS[1] session hash; ARGV[1] now (ms, decimal), ARGV[2] seq high 32 bits, ARGV[3] seq low
 * 32 bits, ARGV[4] TTL grace (ms), ARGV[5] the request's epoch ('' = not checked): neither the
 * current epoch nor the previous one before meta.prevUntil → {5}, seq not marked.
 * Returns {0} unknown, {1} expired (unconfirmed: key deleted; confirmed: secret wiped, the window
 * kept as a tombstone until its TTL), {2} replay, {3} too-old,
 * {4, k, j, m, e, c, x, i} accepted (bit marked, lastSeenAt := now, TTL refreshed to the session's
 * remaining life + the retry horizon).
 */
export const COMMIT_LUA = `${WINDOW_FN}
local f = redis.call('HMGET', KEYS[1], 'x', 'i', 'l', 'h', 'g', 'w', 'v', 'k', 'j', 'm', 'e', 'c', 'u')
local x = tonumber(f[1])
local idle = tonumber(f[2])
local last = tonumber(f[3])
if x == nil or idle == nil or last == nil then return {0} end
if not f[8] then return {1} end
local now = tonumber(ARGV[1])
local u = tonumber(f[13])
if now >= x or now - last >= idle or (f[4] == false and u ~= nil and now >= u) then
  if f[4] then redis.call('HDEL', KEYS[1], 'k', 'j') else redis.call('DEL', KEYS[1]) end
  return {1}
end
if ARGV[5] ~= '' then
  local ep = tonumber(ARGV[5])
  local cur = tonumber(f[11])
  if ep ~= cur then
    local ok, meta = pcall(cjson.decode, f[10])
    local pu = ok and type(meta) == 'table' and tonumber(meta.prevUntil) or nil
    if not (cur ~= nil and ep + 1 == cur and pu ~= nil and now < pu) then return {5} end
  end
end
local st, kv = mark(f, tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[2], ARGV[3])
if st ~= 4 then return {st} end
kv[#kv + 1] = 'l'
kv[#kv + 1] = ARGV[1]
redis.call('HSET', KEYS[1], unpack(kv))
local ttl = math.min(x - now, idle) + tonumber(ARGV[4]) + ${HORIZON}
redis.call('PEXPIRE', KEYS[1], math.floor(ttl))
return {4, f[8], f[9], f[10], f[11], f[12], f[1], f[2]}
`;

/**
 * consumeRetry: KEYS[1] the original's session hash (live or tombstone); ARGV[1] now, ARGV[2] seq
 * high 32 bits, ARGV[3] seq low 32 bits, ARGV[4] TTL grace (ms).
 * Returns 0 absent (an unconfirmed session past its deadline is deleted first), 1 marked (the key
 * then lives at least the retry horizon), 2 committed, 3 too-old.
 */
export const CONSUME_RETRY_LUA = `${WINDOW_FN}
local f = redis.call('HMGET', KEYS[1], 'x', 'i', 'l', 'h', 'g', 'w', 'v', 'k', 'u')
local x = tonumber(f[1])
local idle = tonumber(f[2])
local last = tonumber(f[3])
if x == nil or idle == nil or last == nil then return 0 end
local now = tonumber(ARGV[1])
local u = tonumber(f[9])
local live = f[8] and now < x and now - last < idle and not (f[4] == false and u ~= nil and now >= u)
if not live and f[4] == false then
  redis.call('DEL', KEYS[1])
  return 0
end
local st, kv = mark(f, tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[2], ARGV[3])
if st == 0 then return 0 end
if st ~= 4 then return st end
redis.call('HSET', KEYS[1], unpack(kv))
local keep = ${HORIZON} + tonumber(ARGV[4])
if live then keep = keep + math.min(x - now, last + idle - now) end
if redis.call('PTTL', KEYS[1]) < keep then redis.call('PEXPIRE', KEYS[1], math.floor(keep)) end
return 1
`;

/**
 * delete: KEYS[1] session hash; ARGV[1] now, ARGV[2] TTL grace. 0 unknown (or already a tombstone);
 * 1 deleted: an unconfirmed session goes, a confirmed one becomes a tombstone (secret wiped,
 * expired now, kept for the retry horizon).
 */
export const DELETE_LUA = `
local f = redis.call('HMGET', KEYS[1], 'k', 'h')
if not f[1] then return 0 end
if not f[2] then
  redis.call('DEL', KEYS[1])
  return 1
end
redis.call('HDEL', KEYS[1], 'k', 'j')
redis.call('HSET', KEYS[1], 'x', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ${HORIZON} + tonumber(ARGV[2]))
return 1
`;

/**
 * create: KEYS[1] session hash; ARGV = k, j, m, e, c, x, i, l, ttl (ms), u (confirmBy or ''). Replaces any previous value
 * (fresh replay window) and sets the TTL in the same atomic step.
 */
export const CREATE_LUA = `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'k', ARGV[1], 'j', ARGV[2], 'm', ARGV[3], 'e', ARGV[4], 'c', ARGV[5], 'x', ARGV[6], 'i', ARGV[7], 'l', ARGV[8])
if ARGV[10] ~= '' then redis.call('HSET', KEYS[1], 'u', ARGV[10]) end
redis.call('PEXPIRE', KEYS[1], ARGV[9])
return 1
`;

/**
 * update: KEYS[1] session hash; ARGV[1] expected current wrapped secret ('' = no check), ARGV[2] the
 * caller's clock (ms), ARGV[3] TTL grace (ms), ARGV[4..] field/value pairs to set.
 * Returns 0 unknown, -1 the wrapped secret changed meanwhile (caller retries), 1 updated.
 * The TTL is recomputed from the (possibly new) expiresAt and only ever set to a positive value.
 */
export const UPDATE_LUA = `
if redis.call('HEXISTS', KEYS[1], 'k') == 0 then return 0 end
if ARGV[1] ~= '' and redis.call('HGET', KEYS[1], 'k') ~= ARGV[1] then return -1 end
if #ARGV > 3 then
  local kv = {}
  for n = 4, #ARGV do kv[#kv + 1] = ARGV[n] end
  redis.call('HSET', KEYS[1], unpack(kv))
end
local f = redis.call('HMGET', KEYS[1], 'x', 'i', 'l')
local x = tonumber(f[1])
local idle = tonumber(f[2])
local last = tonumber(f[3])
if x ~= nil and idle ~= nil and last ~= nil then
  local ttl = math.min(x, last + idle) - tonumber(ARGV[2])
  if redis.call('HEXISTS', KEYS[1], 'h') == 1 then ttl = ttl + ${HORIZON} end
  if ttl > 0 then redis.call('PEXPIRE', KEYS[1], math.floor(ttl + tonumber(ARGV[3]))) end
end
return 1
`;

/** A script and its SHA-1 (EVALSHA, then EVAL on NOSCRIPT). */
export interface Script {
  readonly lua: string;
  readonly sha: string;
}
const script = (lua: string): Script => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });
export const SCRIPTS = {
  commit: script(COMMIT_LUA),
  create: script(CREATE_LUA),
  update: script(UPDATE_LUA),
  consume: script(CONSUME_RETRY_LUA),
  del: script(DELETE_LUA),
};
/** The commit script's status codes ({0}..{5}) and the retry script's (0..3). */
export const COMMIT_REASONS = ['unknown', 'expired', 'replay', 'too-old', 'ok', 'epoch'] as const;
export const RETRY_VERDICTS: readonly RetryVerdict[] = ['absent', 'marked', 'committed', 'too-old'];
