/**
 * Request bodies for the bench: random bytes (incompressible, the worst case for wire size) and
 * realistic JSON (an API list response: records with ids, names, e-mails, timestamps, tags,
 * nested addresses; compresses ~5–10× like real API traffic). Deterministic from a seed so runs
 * compare, and built to the exact byte length asked for.
 */
import { randomBytes } from 'node:crypto';

/** Small deterministic PRNG (mulberry32). */
export function prng(seed = 1) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['Ada', 'Alan', 'Grace', 'Linus', 'Barbara', 'Ken', 'Margaret', 'Dennis', 'Radia', 'Whitfield', 'Shafi', 'Tanja', 'Dan', 'Joan', 'Ralph'];
const LAST = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Liskov',
  'Thompson',
  'Hamilton',
  'Ritchie',
  'Perlman',
  'Diffie',
  'Goldwasser',
  'Lange',
  'Bernstein',
  'Daemen',
  'Merkle',
];
const TAGS = ['billing', 'admin', 'beta', 'eu', 'us', 'trial', 'enterprise', 'mobile', 'web', 'api', 'support', 'churn-risk'];
const CITIES = ['Berlin', 'Lisbon', 'Osaka', 'Austin', 'Nairobi', 'Toronto', 'Lyon', 'Sydney'];

function record(rand, i) {
  const f = FIRST[Math.floor(rand() * FIRST.length)];
  const l = LAST[Math.floor(rand() * LAST.length)];
  return {
    id: `usr_${(1e9 + Math.floor(rand() * 9e9)).toString(36)}${i}`,
    name: `${f} ${l}`,
    email: `${f.toLowerCase()}.${l.toLowerCase()}${i}@example.com`,
    createdAt: new Date(1.7e12 + Math.floor(rand() * 3e10)).toISOString(),
    active: rand() > 0.2,
    score: Math.round(rand() * 10000) / 100,
    tags: TAGS.filter(() => rand() > 0.75),
    address: {
      city: CITIES[Math.floor(rand() * CITIES.length)],
      zip: String(10000 + Math.floor(rand() * 89999)),
      line1: `${1 + Math.floor(rand() * 200)} Main Street`,
    },
    note: rand() > 0.5 ? `Customer since ${2015 + Math.floor(rand() * 10)}; prefers e-mail.` : null,
  };
}

/** Realistic JSON document of exactly `size` bytes (UTF-8; ASCII only), as a string. */
export function realisticJson(size, seed = 42) {
  if (size < 64) throw new RangeError('bench: realistic JSON needs at least 64 bytes');
  const rand = prng(seed);
  const items = [];
  let len = '{"items":[],"pad":""}'.length;
  for (let i = 0; ; i++) {
    const r = JSON.stringify(record(rand, i));
    const add = r.length + (items.length ? 1 : 0);
    if (len + add > size) break;
    items.push(r);
    len += add;
  }
  const padLen = size - len;
  const pad = 'x'.repeat(Math.max(0, padLen));
  const out = `{"items":[${items.join(',')}],"pad":"${pad}"}`;
  if (out.length !== size) throw new Error(`bench: realistic JSON length ${out.length} != ${size}`);
  return out;
}

/** Random (incompressible) bytes. */
export function randomPayload(size) {
  return new Uint8Array(randomBytes(size));
}

/** ~1 KB JSON body of the load stage. */
export const ECHO_1K = realisticJson(1024, 7);

export function bytesEqual(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}
