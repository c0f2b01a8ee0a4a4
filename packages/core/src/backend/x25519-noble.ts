/**
 * X25519 (RFC 7748) as @noble/curves' own Montgomery ladder (`montgomery()` of
 * @noble/curves/abstract/montgomery.js) with the curve25519 parameters: p = 2^255 - 19, the
 * RFC 7748 §5 scalar clamping, inversion as x^(p-2) by @noble's `pow`. This is what
 * `x25519` of @noble/curves/ed25519.js is, minus its fixed-base hook (`scalarMultBase`), which
 * maps to the Edwards curve and pulls ed25519's point arithmetic (~10 KB minified) into every
 * bundle, and builds a precomputed table on first use (20-170 ms on a cold page). Public keys
 * here are X25519(sk, 9) through the ladder, as `getPublicKey` without the hook.
 *
 * Pitfalls:
 *  - Same bytes as @noble/curves' x25519 (RFC 7748 §5.2 / §6.1 vectors and a cross-check on
 *    random inputs in ./x25519-noble.test.ts); low-order u (RFC 7748 §6.1's all-zero secret) is
 *    refused by the ladder before it runs, as there.
 *  - The inversion exponent is public, so `pow`'s square-and-multiply is secret-independent, as
 *    noble's addition chain (JS BigInt arithmetic itself is not constant time: see THREAT_MODEL.md).
 */
import { pow } from '@noble/curves/abstract/modular.js';
import { montgomery } from '@noble/curves/abstract/montgomery.js';

const P = /* @__PURE__ */ (() => 2n ** 255n - 19n)();

/** RFC 7748 §5 decodeScalar25519 clamping, in place (the ladder copies the scalar first). */
function clamp(k: Uint8Array): Uint8Array {
  k[0] = (k[0] as number) & 248;
  k[31] = ((k[31] as number) & 127) | 64;
  return k;
}

export const x25519 = /* @__PURE__ */ montgomery({ P, type: 'x25519', powPminus2: (x: bigint) => pow(x, P - 2n, P), adjustScalarBytes: clamp });
