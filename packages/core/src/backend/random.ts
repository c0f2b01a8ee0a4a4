/**
 * CSPRNG bytes for every backend: WebCrypto `getRandomValues` (Node ≥ 20, browsers, Edge,
 * workerd), with small requests (≤ 64 bytes: session ids, X25519 scalars, KEM seeds) served from
 * a 4 KiB buffer filled by one `getRandomValues` call, as Node's own `crypto.randomUUID()` does
 * with its entropy cache.
 *
 * Why a buffer: each `getRandomValues` call costs ~2–5 µs on Node 20 (OpenSSL RAND_bytes behind a
 * job object), and under `next start` more, because Next.js wraps it to track prerender I/O; a
 * handshake draws randomness two or three times. Measured in `bench/profile-requests.js --modes
 * plain,handshake --pin` (bench/README.md).
 *
 * Pitfalls:
 *  - Every byte is handed out once: the bytes are copied out and wiped in the buffer before
 *    `randomBytes` returns, so a later caller can never see an earlier caller's secret.
 *  - The buffer is filled lazily, on the first small request, never at module load: a process
 *    image snapshotted after loading the module (a V8 startup snapshot) carries no filled buffer.
 *    A process snapshotted *after* drawing randomness would clone the remaining buffer: Nen does
 *    not support running from such snapshots (neither does any CSPRNG cache, Node's included).
 *  - Large requests (> 64 bytes) go straight to `getRandomValues`, in 64 KiB chunks (its limit).
 */
import { NenCryptoError } from '../errors.js';

const POOL_BYTES = 4096;
const POOLED_MAX = 64;
let pool: Uint8Array | undefined;
let used = POOL_BYTES;

function fill(out: Uint8Array): void {
  for (let off = 0; off < out.length; off += 65536) globalThis.crypto.getRandomValues(out.subarray(off, Math.min(out.length, off + 65536)));
}

/** `length` fresh CSPRNG bytes (0..1 MiB); NEN_CRYPTO_LENGTH otherwise. */
export function randomBytes(length: number): Uint8Array {
  if (!Number.isInteger(length) || length < 0 || length > 1 << 20) {
    throw new NenCryptoError('NEN_CRYPTO_LENGTH', 'nen: randomBytes length must be an integer in 0..1048576');
  }
  if (length > POOLED_MAX) {
    const out = new Uint8Array(length);
    fill(out);
    return out;
  }
  if (pool === undefined || used + length > POOL_BYTES) {
    pool ??= new Uint8Array(POOL_BYTES);
    fill(pool);
    used = 0;
  }
  const p = pool as Uint8Array;
  const out = p.slice(used, used + length);
  p.fill(0, used, used + length);
  used += length;
  return out;
}
