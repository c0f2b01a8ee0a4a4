#!/usr/bin/env node
/**
 * Where the server's handshake CPU goes, step by step, in one process (interleaved rounds, CPU µs
 * per operation, medians [min]): each Wasm export the handshake reaches (X-Wing and ML-KEM-768
 * SetupBaseS / SetupBaseR + Export, with and without the caller's X25519 half; the ek check alone
 * as a SenderKey; the HKDF / HMAC / SHA-256 calls of TH and S_0), the X25519 steps in node:crypto
 * (the node backend's path on OpenSSL < 3.5), the codec steps of §3 (ClientHello decode,
 * ServerHello encode, TH, S_0 + confirm) and `serverHandshake` whole, unpinned and pinned. The
 * differences between rows give the split: e.g. X-Wing SetupBaseS all-Wasm minus its `_x25519`
 * row = the Wasm's two X25519 operations; `_x25519` minus ML-KEM-768 = the SHA3 combiner.
 *
 *   taskset -c 1 node packages/server/bench/handshake-split.mjs [--core packages/core/dist] [--rounds 7] [--per 400]
 *
 * Pitfalls: compare rows of one run only (the shared machine drifts); pin it. The node:crypto
 * rows are what the 'auto' backend runs only on OpenSSL < 3.5 (Node 20 / 22).
 */
import { createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { handshakeFixture } from './bench-session.mjs';

const { values: v } = parseArgs({
  options: {
    core: { type: 'string', default: path.join(import.meta.dirname, '../../core/dist') },
    rounds: { type: 'string', default: '7' },
    per: { type: 'string', default: '400' },
  },
});
const imp = (f) => import(pathToFileURL(path.resolve(v.core, f)).href);
const core = await imp('index.js');
const { wasmGlueOf } = await imp('backend/wasm.js');
const hs = await imp('protocol/handshake.js');
const w = await core.loadBackend('wasm');
const auto = await core.loadBackend('auto');
const glue = wasmGlueOf(w);
const X = core.KEM_ID.XWING;
const M = core.KEM_ID.MLKEM768;
const info = new TextEncoder().encode('nen/1 ephemeral');
const ctx = new TextEncoder().encode('nen/1 exporter');

const xk = w.generateKeyPair(X);
const mk = w.generateKeyPair(M);
const xRk = new glue.RecipientKey(X, xk.privateKey);
const mRk = new glue.RecipientKey(M, mk.privateKey);
const xEnc = w.setupBaseSExport(X, xk.publicKey, info, ctx, 32).enc;
const mEnc = w.setupBaseSExport(M, mk.publicKey, info, ctx, 32).enc;
const ctXFixed = xEnc.subarray(1088);
const ssXFixed = new Uint8Array(32).fill(7);
const b64 = (b) => Buffer.from(b).toString('base64url');
const pkX = xk.publicKey.subarray(1184);
const skXJwk = () =>
  createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: b64(globalThis.crypto.getRandomValues(new Uint8Array(32))), x: '' }, format: 'jwk' });
const skX = skXJwk();
const pubJwk = () => createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: b64(pkX) }, format: 'jwk' });
const pkXKey = pubJwk();

// protocol: a server key, ClientHellos made beforehand (64 each, cycled)
const { key, keys, unpinned, pinned } = handshakeFixture(core, auto, xk);
const sessionId = new Uint8Array(16);
const params = { keys, sessionId, maxLifetime: 3600, idleTimeout: 600, now: Date.now() };
const sh = core.serverHandshake(auto, unpinned[0], params);
const body = sh.response.subarray(0, sh.response.length - 32);
const th = hs.transcriptHash(auto, unpinned[0], body);
const e32 = new Uint8Array(32).fill(1);
let i = 0;

const ops = {
  'Wasm X-Wing SetupBaseS (all Wasm)': () => glue.setup_base_s_export(X, xk.publicKey, info, ctx, 32).free(),
  'Wasm X-Wing SetupBaseS _x25519 (X25519 given)': () => glue.setup_base_s_export_x25519(xk.publicKey, ctXFixed, ssXFixed, info, ctx, 32).free(),
  'Wasm ML-KEM-768 SetupBaseS': () => glue.setup_base_s_export(M, mk.publicKey, info, ctx, 32).free(),
  'Wasm ML-KEM-768 ek check (SenderKey)': () => new glue.SenderKey(M, mk.publicKey).free(),
  'Wasm X-Wing SetupBaseR (all Wasm)': () => xRk.setup_base_r_export(xEnc, info, ctx, 32),
  'Wasm X-Wing SetupBaseR _x25519 (X25519 given)': () => xRk.setup_base_r_export_x25519(xEnc, ssXFixed, info, ctx, 32),
  'Wasm ML-KEM-768 SetupBaseR': () => mRk.setup_base_r_export(mEnc, info, ctx, 32),
  'Wasm hkdf_extract (32-byte ikm)': () => glue.hkdf_extract(e32, e32),
  'Wasm hkdf_expand (32 bytes)': () => glue.hkdf_expand(e32, info, 32),
  'Wasm hmac_sha256 (32 bytes)': () => glue.hmac_sha256(e32, e32),
  'Wasm sha256 (ClientHello + ServerHello)': () => glue.sha256(unpinned[0]),
  'OpenSSL X25519 private JWK import (+ derive pub)': () => skXJwk(),
  'OpenSSL X25519 private JWK export (ct_X)': () => skX.export({ format: 'jwk' }),
  'OpenSSL X25519 public JWK import': () => pubJwk(),
  'OpenSSL X25519 DH': () => diffieHellman({ privateKey: skX, publicKey: pkXKey }),
  'auto X-Wing SetupBaseS (what the server runs)': () => auto.setupBaseSExport(X, xk.publicKey, info, ctx, 32),
  'auto X-Wing SetupBaseR static': () => key.setupBaseRExport(xEnc, info, ctx, 32),
  decodeClientHello: () => hs.decodeClientHello(unpinned[i++ & 63]),
  encodeServerHelloBody: () =>
    hs.encodeServerHelloBody({ version: 1, kem: X, flags: 0, sessionId, lifetime: 3600, idleTimeout: 600, serverTime: Date.now(), encEph: xEnc }),
  'TH (transcriptHash)': () => hs.transcriptHash(auto, unpinned[0], body),
  'S_0 + confirm (deriveHandshakeSecrets)': () => hs.deriveHandshakeSecrets(auto, th, e32.slice(), undefined),
  'serverHandshake unpinned': () => core.serverHandshake(auto, unpinned[i++ & 63], params).secret.fill(0),
  'serverHandshake pinned': () => core.serverHandshake(auto, pinned[i++ & 63], params).secret.fill(0),
};

const rounds = Number(v.rounds);
const per = Number(v.per);
const res = Object.fromEntries(Object.keys(ops).map((k) => [k, []]));
for (const f of Object.values(ops)) for (let j = 0; j < 50; j++) f(); // warm-up
for (let r = 0; r < rounds; r++) {
  const names = Object.keys(ops);
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + r) % names.length];
    const f = ops[name];
    const t = process.cpuUsage();
    for (let j = 0; j < per; j++) f();
    const d = process.cpuUsage(t);
    res[name].push((d.user + d.system) / per);
  }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`Node ${process.version} (OpenSSL ${process.versions.openssl}), ${rounds} rounds x ${per}, CPU µs per op, median [min]`);
for (const [name, xs] of Object.entries(res)) console.log(`${name.padEnd(50)} ${med(xs).toFixed(1).padStart(7)} [${Math.min(...xs).toFixed(1)}]`);
