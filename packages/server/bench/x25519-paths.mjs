#!/usr/bin/env node
/**
 * The X25519 half of an X-Wing encapsulation through node:crypto, by key import/export path: what
 * `packages/core/src/backend/node-xwing.ts` does per handshake (a fresh scalar imported as a private
 * JWK, its public key exported as ct_X, one DH with the peer's key) against the DER alternatives
 * (PKCS#8 import of prefix + 32 raw bytes; SPKI export sliced to the raw 32 bytes), and each step
 * alone. CPU µs per operation, three rounds.
 *
 * Usage: node bench/x25519-paths.mjs [iterations]   (pin it: taskset -c 1 node ...)
 *
 * Pitfall: never `generateKeyPairSync('x25519')` here: it deadlocks on Node 20 (node-xwing.ts).
 */
import { createPrivateKey, createPublicKey, diffieHellman, randomBytes } from 'node:crypto';

const N = Number(process.argv[2] ?? 3000);
const PKCS8_X25519 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const jwkPrivate = (d) => createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: d.toString('base64url'), x: '' }, format: 'jwk' });
const peer = createPublicKey(jwkPrivate(randomBytes(32)));
const fixed = jwkPrivate(randomBytes(32));

const paths = {
  'encap, JWK import + JWK export (shipped)': () => {
    const k = jwkPrivate(randomBytes(32));
    return [Buffer.from(createPublicKey(k).export({ format: 'jwk' }).x, 'base64url'), diffieHellman({ privateKey: k, publicKey: peer })];
  },
  'encap, JWK import + SPKI export': () => {
    const k = jwkPrivate(randomBytes(32));
    return [createPublicKey(k).export({ format: 'der', type: 'spki' }).subarray(12), diffieHellman({ privateKey: k, publicKey: peer })];
  },
  'encap, PKCS#8 import + SPKI export': () => {
    const k = createPrivateKey({ key: Buffer.concat([PKCS8_X25519, randomBytes(32)]), format: 'der', type: 'pkcs8' });
    return [createPublicKey(k).export({ format: 'der', type: 'spki' }).subarray(12), diffieHellman({ privateKey: k, publicKey: peer })];
  },
  'private JWK import alone': () => jwkPrivate(randomBytes(32)),
  'DH alone': () => diffieHellman({ privateKey: fixed, publicKey: peer }),
  'public export, JWK': () => createPublicKey(fixed).export({ format: 'jwk' }),
  'public export, SPKI DER': () => createPublicKey(fixed).export({ format: 'der', type: 'spki' }),
};

for (let round = 1; round <= 3; round++) {
  for (const [name, f] of Object.entries(paths)) {
    for (let i = 0; i < 200; i++) f();
    const t = process.cpuUsage();
    for (let i = 0; i < N; i++) f();
    const d = process.cpuUsage(t);
    console.log(`round ${round}  ${((d.user + d.system) / N).toFixed(1).padStart(6)} µs  ${name}`);
  }
}
