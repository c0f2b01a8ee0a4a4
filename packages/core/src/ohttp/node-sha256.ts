/**
 * SHA-256 in OpenSSL for the OHTTP gateway's two hashes of the 1,120-byte X-Wing enc, where the
 * runtime is Node.js: the replay id (RFC 9458 §6.5; ./date.ts, hex straight from `digest('hex')`,
 * one flat string instead of 32 table lookups joined) and the response key's HKDF-Extract salt
 * enc || response_nonce (RFC 9458 §4.4; ./encapsulation.ts), hashed here because HMAC hashes any
 * key longer than its 64-byte block first (RFC 2104 §2): Extract(salt, ikm) =
 * Extract(SHA-256(salt), ikm), without joining the 1,152 bytes or copying them into Wasm.
 * Measured (bench/README.md, OHTTP ninth pass): SHA-256 of 1,120 bytes 1.3 µs here vs 2.2 in Wasm.
 *
 * Pitfalls:
 *  - node:crypto comes through `nodeBuiltin` (never a static `node:` import: this module is in
 *    browser / Edge bundles through ./date.ts); elsewhere both functions return undefined and the
 *    callers keep the Wasm / @noble path (same bytes).
 *  - A partial node:crypto (workerd's nodejs_compat, Bun, Deno) must not give wrong bytes: one
 *    known answer (FIPS 180-2 "abc") is checked before first use, else undefined for good.
 *  - The salt shortcut is only for salts longer than 64 bytes (a shorter HMAC key is zero-padded,
 *    not hashed): the caller checks the length.
 */
import { nodeBuiltin } from '../backend/node-builtin.js';

interface Hash {
  update(b: Uint8Array): Hash;
  digest(): Uint8Array;
  digest(enc: 'hex'): string;
}
type CreateHash = (alg: 'sha256') => Hash;

/** SHA-256("abc") (FIPS 180-2 Appendix B.1). */
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

let create: CreateHash | null | undefined;

function createHash(): CreateHash | null {
  if (create === undefined) {
    create = null;
    const c = nodeBuiltin<{ createHash?: CreateHash }>('node:crypto')?.createHash;
    try {
      if (
        typeof c === 'function' &&
        c('sha256')
          .update(Uint8Array.of(0x61, 0x62, 0x63))
          .digest('hex') === ABC
      )
        create = c;
    } catch {
      /* stays null: the callers keep the Wasm / @noble SHA-256 */
    }
  }
  return create;
}

/** Lowercase hex SHA-256 of `data` in OpenSSL, or undefined off Node.js. */
export function nodeSha256Hex(data: Uint8Array): string | undefined {
  return createHash()?.('sha256').update(data).digest('hex');
}

/** SHA-256(a || b) in OpenSSL (no joined copy), or undefined off Node.js. */
export function nodeSha256Of2(a: Uint8Array, b: Uint8Array): Uint8Array | undefined {
  const d = createHash()?.('sha256').update(a).update(b).digest();
  return d ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : undefined;
}
