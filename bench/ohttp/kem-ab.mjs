/**
 * Micro-benchmark (issue 23): the OHTTP HPKE KEM, encapsulate / decapsulate per request, A/B in one
 * run, interleaved, median of 7 rounds of 30: "old" = the all-@noble KEM OHTTP used before
 * (backend/noble-kem.ts encapDerand / decap, unprepared ML-KEM, noble X25519 ladder), "new" =
 * ohttp/hpke.ts (prepared ML-KEM, X25519 on node:crypto). Run: `node bench/ohttp/kem-ab.mjs`
 * (needs the built @nen/core). Bounded: fixed rounds, no network.
 */
import { randomBytes } from 'node:crypto';
import { decap, encapDerand, expandKey } from '../../packages/core/dist/backend/noble-kem.js';
import { OHTTP_KEM, OhttpPrivateKey, encap, generateOhttpPrivateKey } from '../../packages/core/dist/ohttp/hpke.js';

const ROUNDS = 7;
const N = 30;
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];

for (const kem of [OHTTP_KEM.XWING, OHTTP_KEM.MLKEM768]) {
  const seed = generateOhttpPrivateKey(kem);
  const sk = new OhttpPrivateKey(kem, seed);
  const ex = expandKey(kem, seed);
  const r = { oldE: [], newE: [], oldD: [], newD: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of ['old', 'new']) {
      const encs = [];
      let t = performance.now();
      for (let i = 0; i < N; i++) {
        const rnd = randomBytes(kem === OHTTP_KEM.XWING ? 64 : 32);
        encs.push((which === 'old' ? encapDerand(kem, sk.publicKey, rnd) : encap(kem, sk.publicKey, rnd)).enc);
      }
      r[`${which}E`].push(((performance.now() - t) / N) * 1000);
      t = performance.now();
      for (const e of encs) which === 'old' ? decap(kem, ex, undefined, e) : sk.decap(e);
      r[`${which}D`].push(((performance.now() - t) / N) * 1000);
    }
  }
  const f = (k) => med(r[k]).toFixed(0);
  const x = (a, b) => (med(r[a]) / med(r[b])).toFixed(1);
  console.log(
    `${kem === OHTTP_KEM.XWING ? 'X-Wing' : 'ML-KEM-768'}: encapsulate ${f('oldE')} -> ${f('newE')} us (${x('oldE', 'newE')}x), decapsulate ${f('oldD')} -> ${f('newD')} us (${x('oldD', 'newD')}x)`,
  );
  sk.dispose();
}
