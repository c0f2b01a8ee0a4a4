#!/usr/bin/env node
/**
 * Crypto benchmark: the @nen/core backends side by side in one run (Wasm, @noble, node:crypto),
 * on the built package (packages/core/dist + wasm). Medians of per-op times over many rounds;
 * in every round each implementation runs one batch, interleaved, so drift (thermal, GC, noisy
 * neighbours) hits all alike.
 *
 *   node bench/crypto/run.js [--quick]          (pnpm --filter @nen/bench bench)
 *
 * Rows: ML-KEM-768 keygen/encaps/decaps as raw KEM (Wasm hazmat entry points vs
 * @noble/post-quantum vs Node ≥ 24's native ML-KEM where present); X-Wing keygen and full HPKE
 * SetupBaseS / SetupBaseR + Export (RFC 9180) per backend; ChaCha20-Poly1305 seal+open at
 * 1 KB, 16 KB, 64 KB, 1 MB per backend and raw node:crypto. Plus the Wasm sizes a browser
 * downloads (raw and gzip). Results: bench/results/crypto-<timestamp>.json and
 * bench/results/latest/crypto.json, with the environment.
 *
 * Pitfall: a benchmark, not a test; nothing here asserts timing. Figures are noisy (±20 %) on a
 * shared 2-core VM.
 */
import { execFileSync } from 'node:child_process';
import * as nodeCrypto from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ml_kem768 } from '@noble/post-quantum/ml-kem.js';
import { ml_kem768_x25519 } from '@noble/post-quantum/hybrid.js';
import { KEM_ID, loadBackend } from '@nen/core';

const here = dirname(fileURLToPath(import.meta.url));
const benchDir = resolve(here, '..');
const repoRoot = resolve(benchDir, '..');
const coreDir = join(repoRoot, 'packages/core');
const quick = process.argv.includes('--quick');

/** Rounds and target time per batch (ms). */
const ROUNDS = quick ? 5 : 31;
const BATCH_MS = quick ? 8 : 25;
const WARMUP_MS = quick ? 30 : 150;

const wasm = await loadBackend('wasm');
const noble = await loadBackend('noble');
const node = await loadBackend('node');
// Test-only deterministic entry points of the Wasm core (not in the package exports).
const { hazmat } = await import(pathToFileURL(join(coreDir, 'dist/hazmat.js')).href);
const hz = hazmat();

const rnd = (n) => wasm.randomBytes(n);
const hasNodeMlKem =
  typeof nodeCrypto.encapsulate === 'function' &&
  (() => {
    try {
      nodeCrypto.generateKeyPairSync('ml-kem-768');
      return true;
    } catch {
      return false;
    }
  })();

// ---- fixtures ---------------------------------------------------------------------------------
const mlSeed = rnd(64);
const mlHz = hz.mlkem768KeygenSeed(mlSeed);
const mlNoble = ml_kem768.keygen(mlSeed);
const mlCt = hz.mlkem768Encaps(mlHz.ek, rnd(32)).c;
const nodeMl = hasNodeMlKem ? nodeCrypto.generateKeyPairSync('ml-kem-768') : undefined;
const nodeMlCt = nodeMl ? nodeCrypto.encapsulate(nodeMl.publicKey).ciphertext : undefined;

const info = new TextEncoder().encode('nen bench info');
const ctx = new TextEncoder().encode('nen bench ctx');
const kems = { 'X-Wing': KEM_ID.XWING, 'ML-KEM-768': KEM_ID.MLKEM768 };
const hpkeFx = {};
for (const [name, kem] of Object.entries(kems)) {
  const kp = wasm.generateKeyPair(kem);
  const enc = wasm.setupBaseSExport(kem, kp.publicKey, info, ctx, 32).enc;
  hpkeFx[name] = {
    kem,
    kp,
    enc,
    rk: {
      wasm: wasm.createRecipientKey(kem, kp.privateKey),
      noble: noble.createRecipientKey(kem, kp.privateKey),
      node: node.createRecipientKey(kem, kp.privateKey),
    },
  };
}

function rawNodeSealOpen(key, nonce, aad, pt) {
  const c = nodeCrypto.createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
  c.setAAD(aad, { plaintextLength: pt.length });
  const ct = Buffer.concat([c.update(pt), c.final()]);
  const tag = c.getAuthTag();
  const d = nodeCrypto.createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
  d.setAAD(aad, { plaintextLength: ct.length });
  d.setAuthTag(tag);
  return Buffer.concat([d.update(ct), d.final()]);
}

// ---- the rows -----------------------------------------------------------------------------------
/** @type {{ id: string, group: string, bytes?: number, impls: Record<string, () => unknown> }[]} */
const rows = [];
rows.push({
  id: 'ML-KEM-768 keygen',
  group: 'kem',
  impls: {
    wasm: () => hz.mlkem768KeygenSeed(mlSeed),
    noble: () => ml_kem768.keygen(mlSeed),
    ...(hasNodeMlKem ? { 'node:crypto': () => nodeCrypto.generateKeyPairSync('ml-kem-768') } : {}),
  },
});
const m32 = rnd(32);
rows.push({
  id: 'ML-KEM-768 encaps',
  group: 'kem',
  impls: {
    wasm: () => hz.mlkem768Encaps(mlHz.ek, m32),
    noble: () => ml_kem768.encapsulate(mlNoble.publicKey, m32),
    ...(hasNodeMlKem ? { 'node:crypto': () => nodeCrypto.encapsulate(nodeMl.publicKey) } : {}),
  },
});
rows.push({
  id: 'ML-KEM-768 decaps',
  group: 'kem',
  impls: {
    wasm: () => hz.mlkem768Decaps(mlHz.dk, mlCt),
    noble: () => ml_kem768.decapsulate(mlCt, mlNoble.secretKey),
    ...(hasNodeMlKem ? { 'node:crypto': () => nodeCrypto.decapsulate(nodeMl.privateKey, nodeMlCt) } : {}),
  },
});
const xwSeed = rnd(32);
const xwNoble = ml_kem768_x25519.keygen(xwSeed);
const xwNobleCt = ml_kem768_x25519.encapsulate(xwNoble.publicKey).cipherText;
rows.push({
  id: 'X-Wing keygen',
  group: 'kem',
  impls: {
    wasm: () => wasm.generateKeyPair(KEM_ID.XWING),
    noble: () => noble.generateKeyPair(KEM_ID.XWING),
    '@noble preset': () => ml_kem768_x25519.keygen(),
  },
});
rows.push({
  id: 'X-Wing encaps (@noble preset, reference)',
  group: 'kem',
  impls: { '@noble preset': () => ml_kem768_x25519.encapsulate(xwNoble.publicKey) },
});
rows.push({
  id: 'X-Wing decaps (@noble preset, reference)',
  group: 'kem',
  impls: { '@noble preset': () => ml_kem768_x25519.decapsulate(xwNobleCt, xwSeed) },
});
for (const [name, fx] of Object.entries(hpkeFx)) {
  rows.push({
    id: `HPKE SetupBaseS+Export ${name}`,
    group: 'hpke',
    impls: Object.fromEntries([wasm, noble, node].map((b) => [b.name, () => b.setupBaseSExport(fx.kem, fx.kp.publicKey, info, ctx, 32)])),
  });
  rows.push({
    id: `HPKE SetupBaseR+Export ${name}`,
    group: 'hpke',
    impls: Object.fromEntries(Object.entries(fx.rk).map(([b, rk]) => [b, () => rk.setupBaseRExport(fx.enc, info, ctx, 32)])),
  });
  rows.push({
    id: `HPKE load key + SetupBaseR ${name}`,
    group: 'hpke',
    impls: Object.fromEntries(
      [wasm, noble].map((b) => [
        b.name,
        () => {
          const rk = b.createRecipientKey(fx.kem, fx.kp.privateKey);
          try {
            return rk.setupBaseRExport(fx.enc, info, ctx, 32);
          } finally {
            rk.dispose();
          }
        },
      ]),
    ),
  });
}
const aeadKey = rnd(32);
const aeads = { wasm: wasm.createAead(aeadKey), noble: noble.createAead(aeadKey), node: node.createAead(aeadKey) };
for (const [label, size] of [
  ['1 KB', 1024],
  ['16 KB', 16 * 1024],
  ['64 KB', 64 * 1024],
  ['1 MB', 1024 * 1024],
]) {
  const pt = rnd(size);
  const nonce = rnd(12);
  const aad = rnd(32);
  rows.push({
    id: `ChaCha20-Poly1305 seal+open ${label}`,
    group: 'aead',
    bytes: size,
    impls: {
      ...Object.fromEntries(Object.entries(aeads).map(([b, a]) => [b, () => a.open(nonce, aad, a.seal(nonce, aad, pt))])),
      'node:crypto raw': () => rawNodeSealOpen(aeadKey, nonce, aad, pt),
    },
  });
}

// ---- measurement --------------------------------------------------------------------------------
const now = () => Number(process.hrtime.bigint()) / 1e6;
function batchSize(fn) {
  let n = 1;
  for (;;) {
    const t0 = now();
    for (let i = 0; i < n; i++) fn();
    const dt = now() - t0;
    if (dt >= BATCH_MS / 4 || n >= 1 << 16) return Math.max(1, Math.round((n * BATCH_MS) / Math.max(dt, 0.001)));
    n *= 2;
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const results = [];
const started = Date.now();
for (const [ri, row] of rows.entries()) {
  const names = Object.keys(row.impls);
  // Warm-up (JIT tiers, Wasm compilation tiers, allocator) before sizing the batches.
  for (const n of names) {
    const t0 = now();
    while (now() - t0 < WARMUP_MS) row.impls[n]();
  }
  const sizes = Object.fromEntries(names.map((n) => [n, batchSize(row.impls[n])]));
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [...names].reverse() : names;
    for (const n of order) {
      const fn = row.impls[n];
      const k = sizes[n];
      const t0 = now();
      for (let i = 0; i < k; i++) fn();
      samples[n].push(((now() - t0) * 1000) / k); // µs per op
    }
  }
  const impls = Object.fromEntries(
    names.map((n) => {
      const med = median(samples[n]);
      const out = { median_us: +med.toFixed(2), min_us: +Math.min(...samples[n]).toFixed(2), iterations: sizes[n] * ROUNDS };
      if (row.bytes) out.mb_per_s = +(row.bytes / 1e6 / (med / 1e6)).toFixed(1);
      return [n, out];
    }),
  );
  results.push({ op: row.id, group: row.group, ...(row.bytes ? { bytes: row.bytes } : {}), impls });
  process.stderr.write(`\r[crypto bench] ${ri + 1}/${rows.length} ${row.id.padEnd(50)}`);
}
process.stderr.write(`\r[crypto bench] done in ${((Date.now() - started) / 1000).toFixed(1)} s${' '.repeat(50)}\n`);

// ---- ratios, sizes, environment ---------------------------------------------------------------
let stat = 'median_us';
const get = (op, impl) => results.find((r) => r.op === op)?.impls[impl]?.[stat];
const ratio = (a, b) => (a && b ? +(a / b).toFixed(2) : null);
const computeRatios = () => ({
  'ML-KEM-768 encaps: noble time / wasm time (target >= 6)': ratio(get('ML-KEM-768 encaps', 'noble'), get('ML-KEM-768 encaps', 'wasm')),
  'ML-KEM-768 decaps: noble / wasm': ratio(get('ML-KEM-768 decaps', 'noble'), get('ML-KEM-768 decaps', 'wasm')),
  'ML-KEM-768 keygen: noble / wasm': ratio(get('ML-KEM-768 keygen', 'noble'), get('ML-KEM-768 keygen', 'wasm')),
  'AEAD 1 MB: node backend throughput / raw node:crypto (target >= 0.8)': ratio(
    get('ChaCha20-Poly1305 seal+open 1 MB', 'node:crypto raw'),
    get('ChaCha20-Poly1305 seal+open 1 MB', 'node'),
  ),
  'AEAD 1 MB: node backend / wasm (speed-up)': ratio(get('ChaCha20-Poly1305 seal+open 1 MB', 'wasm'), get('ChaCha20-Poly1305 seal+open 1 MB', 'node')),
  'HPKE SetupBaseS X-Wing: noble / wasm': ratio(get('HPKE SetupBaseS+Export X-Wing', 'noble'), get('HPKE SetupBaseS+Export X-Wing', 'wasm')),
  'HPKE SetupBaseR X-Wing: noble / wasm': ratio(get('HPKE SetupBaseR+Export X-Wing', 'noble'), get('HPKE SetupBaseR+Export X-Wing', 'wasm')),
  ...(hasNodeMlKem ? { 'ML-KEM-768 encaps: wasm / node:crypto native': ratio(get('ML-KEM-768 encaps', 'wasm'), get('ML-KEM-768 encaps', 'node:crypto')) } : {}),
});
/** From medians (the headline) and from per-implementation minima (robust when the VM is busy). */
const ratios = computeRatios();
stat = 'min_us';
const ratiosFromMinima = computeRatios();

function fileSize(p) {
  if (!existsSync(p)) return null;
  const b = readFileSync(p);
  return { raw_bytes: b.length, gzip_bytes: gzipSync(b, { level: 9 }).length };
}
const wasmSizes = {
  'nen_core_bg.wasm (browser download)': fileSize(join(coreDir, 'wasm/nen_core_bg.wasm')),
  'nen_core.js (glue)': fileSize(join(coreDir, 'wasm/nen_core.js')),
  'nen_core_bytes.js (server-side embedded, not sent to browsers)': fileSize(join(coreDir, 'wasm/nen_core_bytes.js')),
};

const pkgVersion = (dir) => {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
};
const git = (args) => {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};
const coreDeps = JSON.parse(readFileSync(join(coreDir, 'package.json'), 'utf8')).dependencies;
const environment = {
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  memory_gib: +(os.totalmem() / 2 ** 30).toFixed(1),
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  node: process.version,
  load_average_at_end: os.loadavg().map((x) => +x.toFixed(2)),
  openssl: process.versions.openssl,
  packages: { '@nen/core': pkgVersion(coreDir), ...coreDeps, 'wasm-bindgen': '0.2.130' },
  git_commit: git(['rev-parse', 'HEAD']),
  git_dirty: (git(['status', '--porcelain', '--', 'packages/core', 'crates', 'bench/crypto']) ?? '') !== '',
  quick,
  rounds: ROUNDS,
  batch_ms: BATCH_MS,
};
const disclaimer =
  'Medians of per-operation times over interleaved rounds on this machine; a shared 2-core VM is noisy (±20 %). ' +
  'The "wasm" KEM rows use test-only hazmat entry points of the same Wasm core; "node" delegates KEM/HPKE to Wasm.';
const out = {
  kind: 'crypto',
  date: new Date().toISOString(),
  environment,
  disclaimer,
  results,
  ratios,
  ratios_from_minima: ratiosFromMinima,
  wasm_sizes: wasmSizes,
};

// ---- print ------------------------------------------------------------------------------------
const cols = ['wasm', 'noble', 'node', 'node:crypto', 'node:crypto raw', '@noble preset'];
const fmt = (r, c) => {
  const v = r.impls[c];
  if (!v) return '–';
  return r.bytes ? `${v.median_us} µs (${v.mb_per_s} MB/s)` : `${v.median_us} µs`;
};
const width = [44, ...cols.map(() => 24)];
const line = (cells) => cells.map((c, i) => String(c).padEnd(width[i])).join(' ');
console.log(
  `\nNen crypto bench — ${environment.cpu}, ${environment.cores} cores, Node ${environment.node}, load avg ${environment.load_average_at_end.join(' ')}${quick ? ' (quick)' : ''}`,
);
console.log(line(['operation (median per op)', ...cols]));
for (const r of results) console.log(line([r.op, ...cols.map((c) => fmt(r, c))]));
console.log('\nratios (from medians; from minima):');
for (const [k, v] of Object.entries(ratios)) console.log(`  ${k}: ${v ?? 'n/a'}; ${ratiosFromMinima[k] ?? 'n/a'}`);
console.log('\nWasm sizes:');
for (const [k, v] of Object.entries(wasmSizes)) console.log(`  ${k}: ${v ? `${v.raw_bytes} B raw, ${v.gzip_bytes} B gzip` : 'missing'}`);

const resultsDir = join(benchDir, 'results');
mkdirSync(join(resultsDir, 'latest'), { recursive: true });
const stamp = out.date.replace(/[:.]/g, '-');
const file = join(resultsDir, `crypto-${stamp}.json`);
writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
writeFileSync(join(resultsDir, 'latest', 'crypto.json'), JSON.stringify(out, null, 2) + '\n');
console.log(`\nwrote ${file} and ${join(resultsDir, 'latest', 'crypto.json')}`);

for (const fx of Object.values(hpkeFx)) for (const rk of Object.values(fx.rk)) rk.dispose();
for (const a of Object.values(aeads)) a.dispose();
