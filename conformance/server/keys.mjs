/**
 * The fault server's fixed test keys (never use them anywhere else) and the pins the scenarios
 * name: `k1`, `k2` (X-Wing), `m1` (ML-KEM-768), `zz` (a kid the server never has, with k1's key)
 * and `k1-wrong` (kid k1 with k2's public key: a wrong pin).
 *
 * Pitfall: the seeds are public; the pins are computed from them with @nen/core at start.
 */
import * as core from '@nen/core';

const seed = (n, b) => Buffer.alloc(n, b);
export const SEEDS = { k1: seed(32, 0x11), k2: seed(32, 0x22), m1: seed(64, 0x33) };

/** `NEN_SERVER_KEYS`-style list for the given key ids. */
export const serverKeys = (...kids) => kids.map((kid) => `${kid}:${core.toBase64Url(SEEDS[kid])}`).join(',');

/** Symbolic pin name → pin string. */
export async function pins() {
  const backend = await core.loadBackend('wasm');
  const pub = {};
  for (const [kid, s] of Object.entries(SEEDS)) {
    const k = backend.createRecipientKey(kid === 'm1' ? core.KEM_ID.MLKEM768 : core.KEM_ID.XWING, s);
    pub[kid] = k.publicKey;
    k.dispose();
  }
  return {
    k1: core.formatServerKeyPin('k1', pub.k1),
    k2: core.formatServerKeyPin('k2', pub.k2),
    m1: core.formatServerKeyPin('m1', pub.m1),
    zz: core.formatServerKeyPin('zz', pub.k1),
    'k1-wrong': core.formatServerKeyPin('k1', pub.k2),
  };
}
