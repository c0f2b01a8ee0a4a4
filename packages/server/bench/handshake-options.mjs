#!/usr/bin/env node
/**
 * The server-handshake options of issue 11 item 5, measured side by side in one process
 * (interleaved rounds, medians; run `pnpm build` first, then with each Node):
 *
 *   node packages/server/bench/handshake-options.mjs            # Node 20 (OpenSSL 3.0)
 *   .tools/node24/bin/node packages/server/bench/handshake-options.mjs   # Node 24 (OpenSSL 3.5)
 *
 *  - ML-KEM-768: the Wasm (libcrux; the static key held unpacked) vs node:crypto's native ML-KEM
 *    (Node ≥ 24.7): encapsulation to a fresh client key (the ephemeral half of every handshake:
 *    the key must be imported each time) and decapsulation with the static key (imported once).
 *  - X25519, the fresh-scalar half of an X-Wing encapsulation: (A) a random scalar imported as a
 *    JWK + export of its public key + the peer's key imported + DH (what node-xwing.ts does),
 *    (B) generateKeyPairSync + export + import + DH (NOT usable on Node 20: the key-generation
 *    job's destructor, run by GC, takes the key's mutex and a GC during an export of that key
 *    deadlocks; reproduced with gdb), (W) the whole X-Wing SetupBaseS in the Wasm.
 */
import crypto from 'node:crypto';
import { KEM_ID, loadBackend } from '@nen/core';

const wasm = await loadBackend('wasm');
const node = await loadBackend('node');
const rounds = Number(process.argv[2] ?? 9);
const per = 300;
const info = new TextEncoder().encode('bench');
const ctx = new TextEncoder().encode('ctx');

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const ops = {};
const add = (name, f) => {
  ops[name] = { f, t: [] };
};

// ML-KEM-768 in the Wasm, through the backend API (HPKE SetupBaseS / SetupBaseR + Export: the KEM plus ~3 µs of key schedule)
const mlPairs = Array.from({ length: 64 }, () => wasm.generateKeyPair(KEM_ID.MLKEM768));
const mlStatic = wasm.createRecipientKey(KEM_ID.MLKEM768, mlPairs[0].privateKey);
const mlEnc = wasm.setupBaseSExport(KEM_ID.MLKEM768, mlPairs[0].publicKey, info, ctx, 32).enc;
let i = 0;
add('ML-KEM-768 encaps to a fresh key, Wasm (SetupBaseS+Export)', () => wasm.setupBaseSExport(KEM_ID.MLKEM768, mlPairs[i++ & 63].publicKey, info, ctx, 32));
add('ML-KEM-768 decaps, static key, Wasm unpacked (SetupBaseR+Export)', () => mlStatic.setupBaseRExport(mlEnc, info, ctx, 32));

if (typeof crypto.encapsulate === 'function') {
  const nativePairs = Array.from({ length: 64 }, () => crypto.generateKeyPairSync('ml-kem-768'));
  const raws = nativePairs.map((k) => k.publicKey.export({ format: 'raw-public' }));
  const staticKey = nativePairs[0].privateKey;
  const { ciphertext } = crypto.encapsulate(nativePairs[0].publicKey);
  let j = 0;
  add('ML-KEM-768 encaps to a fresh key, node:crypto (raw import + encapsulate)', () =>
    crypto.encapsulate(crypto.createPublicKey({ key: raws[j++ & 63], format: 'raw-public', asymmetricKeyType: 'ml-kem-768' })),
  );
  add('ML-KEM-768 decaps, static key, node:crypto (decapsulate)', () => crypto.decapsulate(staticKey, ciphertext));
}

const b64 = (b) => Buffer.from(b).toString('base64url');
const peers = Array.from({ length: 64 }, () => b64(crypto.randomBytes(32)));
let p = 0;
add('X25519 fresh scalar: (A) JWK import + export + peer import + DH', () => {
  const k = crypto.createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: b64(crypto.randomBytes(32)), x: '' }, format: 'jwk' });
  crypto.createPublicKey(k).export({ format: 'jwk' });
  const u = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: peers[p++ & 63] }, format: 'jwk' });
  crypto.diffieHellman({ privateKey: k, publicKey: u });
});
if (!process.versions.node.startsWith('20.')) {
  add('X25519 fresh scalar: (B) generateKeyPairSync + export + peer import + DH', () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('x25519');
    publicKey.export({ format: 'jwk' });
    const u = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: peers[p++ & 63] }, format: 'jwk' });
    crypto.diffieHellman({ privateKey, publicKey: u });
  });
}
const xwPairs = Array.from({ length: 64 }, () => wasm.generateKeyPair(KEM_ID.XWING));
let q = 0;
add('X-Wing SetupBaseS+Export, Wasm (ML-KEM + 2 X25519 ladders in Wasm)', () =>
  wasm.setupBaseSExport(KEM_ID.XWING, xwPairs[q++ & 63].publicKey, info, ctx, 32),
);
add('X-Wing SetupBaseS+Export, node backend (X25519 in OpenSSL where fast)', () =>
  node.setupBaseSExport(KEM_ID.XWING, xwPairs[q++ & 63].publicKey, info, ctx, 32),
);

for (const o of Object.values(ops)) for (let k = 0; k < 50; k++) o.f(); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const o of Object.values(ops)) {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < per; k++) o.f();
    o.t.push(Number(process.hrtime.bigint() - t0) / per / 1000);
  }
}
console.log(`Node ${process.version}, OpenSSL ${process.versions.openssl}; ${rounds} interleaved rounds of ${per}; median µs per op`);
for (const [name, o] of Object.entries(ops)) console.log(`${median(o.t).toFixed(1).padStart(8)}  ${name}`);
