#!/usr/bin/env node
/**
 * The handshake's HPKE operations with the KEM in the Wasm (what the 'auto' backend runs) against
 * ML-KEM-768 in node:crypto (@nen/core's backend/node-mlkem.js: Node 24 / OpenSSL 3.5), side by
 * side in one process, interleaved rounds, CPU µs per operation, medians [min]. Each native path
 * is checked against the Wasm's bytes before it is timed.
 *   - ML-KEM-768 (0x0041) SetupBaseS + Export to a fresh pkR: Wasm vs ek import + Encaps + RFC 9180
 *     schedule (over the Wasm's HKDF, as the node backend's small inputs);
 *   - its SetupBaseR + Export with a static key: Wasm vs Decaps (key imported once) + an
 *     export-only schedule (psk_id_hash / info_hash / ks_context cached);
 *   - X-Wing SetupBaseS: Wasm vs Wasm ML-KEM + OpenSSL X25519 (generateKeyPairSync) vs all in
 *     node:crypto (ML-KEM, X25519, the SHA3-256 combiner);
 *   - X-Wing SetupBaseR, static key: the node backend (Wasm ML-KEM, OpenSSL X25519) vs all in
 *     node:crypto.
 *
 *   .tools/node24/bin/node packages/server/bench/native-kem-paths.mjs [--core packages/core/dist] [--rounds 7] [--per 400]
 *
 * Pitfalls: Node 24 only (Node 20 has no ML-KEM in node:crypto: the script says so and exits).
 * Pin it (`taskset -c 1`) on the shared machine and compare rows of one run only.
 */
import { createHash, createPublicKey, diffieHellman, generateKeyPairSync, createPrivateKey } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: v } = parseArgs({
  options: {
    core: { type: 'string', default: path.join(import.meta.dirname, '../../core/dist') },
    rounds: { type: 'string', default: '7' },
    per: { type: 'string', default: '400' },
  },
});
const imp = (f) => import(pathToFileURL(path.resolve(v.core, f)).href);
const core = await imp('index.js');
const { nativeMlKem768 } = await imp('backend/node-mlkem.js');
const { wasmGlueOf, senderExport } = await imp('backend/wasm.js');
const { keyScheduleExport, labeledExtract, labeledExpand, hpkeSuiteId } = await imp('backend/hpke.js');
const m = nativeMlKem768();
if (!m) {
  console.log(`Node ${process.version} (OpenSSL ${process.versions.openssl}) has no ML-KEM-768 in node:crypto: nothing to compare`);
  process.exit(0);
}
const w = await core.loadBackend('wasm');
const node = await core.loadBackend('node');
const glue = wasmGlueOf(w);
const X = core.KEM_ID.XWING;
const M = core.KEM_ID.MLKEM768;
const info = new TextEncoder().encode('nen/1 ephemeral');
const ctx = new TextEncoder().encode('nen/1 exporter');
const h = { extract: (s, i) => w.hkdfExtract(s, i), expand: (p, i, l) => w.hkdfExpand(p, i, l) };
const LABEL = Uint8Array.of(0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c); // X-Wing's "\.//^\"
const empty = new Uint8Array(0);

// export-only RFC 9180 schedule, ks_context cached per KEM (info fixed here)
const suite = { [X]: hpkeSuiteId(X), [M]: hpkeSuiteId(M) };
const ksContext = {};
for (const k of [X, M]) {
  const s = suite[k];
  ksContext[k] = Uint8Array.of(0, ...labeledExtract(h, s, empty, 'psk_id_hash', empty), ...labeledExtract(h, s, empty, 'info_hash', info));
}
const exportOnly = (k, ss) => {
  const s = suite[k];
  const secret = labeledExtract(h, s, ss, 'secret', empty);
  return labeledExpand(h, s, labeledExpand(h, s, secret, 'exp', ksContext[k], 32), 'sec', ctx, 32);
};

const mk = w.generateKeyPair(M);
const xk = w.generateKeyPair(X);
const pkX = xk.publicKey.subarray(1184);
const mRecipient = w.createRecipientKey(M, mk.privateKey);
const xRecipient = node.createRecipientKey(X, xk.privateKey);
const mNative = m.importPrivateKeySeed(mk.privateKey).privateKey;
const xExpanded = createHash('shake256', { outputLength: 96 }).update(xk.privateKey).digest();
const xNative = m.importPrivateKeySeed(xExpanded.subarray(0, 64)).privateKey;
const xSkX = createPrivateKey({
  key: { kty: 'OKP', crv: 'X25519', d: xExpanded.subarray(64).toString('base64url'), x: pkX.toString('base64url') },
  format: 'jwk',
});
const mEnc = w.setupBaseSExport(M, mk.publicKey, info, ctx, 32);
const xEnc = w.setupBaseSExport(X, xk.publicKey, info, ctx, 32);

const x25519Pub = (u) => createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: Buffer.from(u).toString('base64url') }, format: 'jwk' });
const combiner = (ssM, ssX, ctX) => createHash('sha3-256').update(ssM).update(ssX).update(ctX).update(pkX).update(LABEL).digest();
const xwingRNative = () => {
  const ctX = xEnc.enc.subarray(1088);
  const ssX = diffieHellman({ privateKey: xSkX, publicKey: x25519Pub(ctX) });
  return exportOnly(X, combiner(m.decapsulate(xNative, xEnc.enc.subarray(0, 1088)), ssX, ctX));
};
const ephemeral = () => {
  const kp = generateKeyPairSync('x25519');
  const ctX = Buffer.from(kp.publicKey.export({ format: 'jwk' }).x, 'base64url');
  return { ctX, ssX: diffieHellman({ privateKey: kp.privateKey, publicKey: x25519Pub(pkX) }) };
};

// correctness before timing: each native path gives the Wasm's bytes
const hex = (b) => Buffer.from(b).toString('hex');
const e1 = m.encapsulate(m.importPublicKey(mk.publicKey));
if (hex(keyScheduleExport(h, M, e1.sharedSecret, info, ctx, 32)) !== hex(mRecipient.setupBaseRExport(e1.ciphertext, info, ctx, 32)))
  throw new Error('ML-KEM S');
if (hex(exportOnly(M, m.decapsulate(mNative, mEnc.enc))) !== hex(mEnc.exported)) throw new Error('ML-KEM R');
if (hex(xwingRNative()) !== hex(xEnc.exported)) throw new Error('X-Wing R');

const ops = {
  'ML-KEM-768 SetupBaseS, Wasm': () => w.setupBaseSExport(M, mk.publicKey, info, ctx, 32),
  'ML-KEM-768 SetupBaseS, node:crypto': () => {
    const e = m.encapsulate(m.importPublicKey(mk.publicKey));
    return keyScheduleExport(h, M, e.sharedSecret, info, ctx, 32);
  },
  'ML-KEM-768 SetupBaseR static, Wasm': () => mRecipient.setupBaseRExport(mEnc.enc, info, ctx, 32),
  'ML-KEM-768 SetupBaseR static, node:crypto': () => exportOnly(M, m.decapsulate(mNative, mEnc.enc)),
  'X-Wing SetupBaseS, Wasm': () => w.setupBaseSExport(X, xk.publicKey, info, ctx, 32),
  'X-Wing SetupBaseS, Wasm ML-KEM + OpenSSL X25519': () => {
    const { ctX, ssX } = ephemeral();
    return senderExport(glue.setup_base_s_export_x25519(xk.publicKey, ctX, ssX, info, ctx, 32));
  },
  'X-Wing SetupBaseS, node:crypto': () => {
    const e = m.encapsulate(m.importPublicKey(xk.publicKey.subarray(0, 1184)));
    const { ctX, ssX } = ephemeral();
    return exportOnly(X, combiner(e.sharedSecret, ssX, ctX));
  },
  'X-Wing SetupBaseR static, node backend': () => xRecipient.setupBaseRExport(xEnc.enc, info, ctx, 32),
  'X-Wing SetupBaseR static, node:crypto': xwingRNative,
};
const rounds = Number(v.rounds);
const per = Number(v.per);
const names = Object.keys(ops);
const t = Object.fromEntries(names.map((n) => [n, []]));
for (const n of names) for (let i = 0; i < 200; i++) ops[n]();
for (let r = 0; r < rounds; r++) {
  for (const n of r % 2 ? names : [...names].reverse()) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < per; i++) ops[n]();
    const c = process.cpuUsage(c0);
    t[n].push((c.user + c.system) / per);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`Node ${process.version}, OpenSSL ${process.versions.openssl}; ${rounds} interleaved rounds of ${per}; CPU µs per operation, median [min]`);
for (const n of names) console.log(`${median(t[n]).toFixed(1).padStart(8)}  [${Math.min(...t[n]).toFixed(1)}]  ${n}`);
