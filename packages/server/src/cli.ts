#!/usr/bin/env node
/**
 * `nen` CLI. `nen keygen [--kem xwing|mlkem768] [--kid <id>]` generates a long-term server KEM key
 * (HPKE serialized private key = seed; X-Wing draft-ietf-hpke-pq by default, or ML-KEM-768 FIPS 203)
 * and prints the env line for the server, the pin for clients, and a fresh `NEN_STORE_KEY` (32
 * random bytes, base64url) for deployments on Redis.
 *
 * Pitfalls: the env lines are secrets (the private key, the store key): they go to stdout only, for
 * the operator to put into a secret store; the pin (public key) is safe to publish. NEN_STORE_KEY is
 * set once per deployment and kept across server key rotations: replacing it makes every session
 * stored in Redis unreadable, so it is printed as a suggestion, not a value to copy at each rotation.
 */
import { randomBytes } from 'node:crypto';
import { KEM_ID, loadBackend, toBase64Url } from '@nen/core';
import { generateServerKey } from './keys.js';

const USAGE = `usage: nen keygen [--kem xwing|mlkem768] [--kid <id>]

Generates a server key. Put the NEN_SERVER_KEYS line in the server's secret environment
(append ",<entry>" to an existing value to rotate: several keys may be live), and give clients the
pin (createNenClient({ serverKey: "<pin>" }) / NEXT_PUBLIC_NEN_SERVER_KEY; during a rotation
serverKey: ["<new pin>", "<old pin>"]). With Redis (REDIS_URL), also set NEN_STORE_KEY once, the same
on every instance, and keep it when rotating server keys.`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd !== 'keygen') {
    console.error(USAGE);
    return cmd === undefined || cmd === '--help' || cmd === '-h' ? 0 : 2;
  }
  let kem: number = KEM_ID.XWING;
  let kid = `k${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const v = rest[i + 1];
    if (a === '--kem' && v) {
      if (v === 'xwing') kem = KEM_ID.XWING;
      else if (v === 'mlkem768') kem = KEM_ID.MLKEM768;
      else {
        console.error(`nen: unknown --kem ${v} (xwing | mlkem768)`);
        return 2;
      }
      i++;
    } else if (a === '--kid' && v) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(v)) {
        console.error('nen: --kid must be 1-32 of A-Z a-z 0-9 _ -');
        return 2;
      }
      kid = v;
      i++;
    } else {
      console.error(USAGE);
      return 2;
    }
  }
  const backend = await loadBackend('auto');
  const k = generateServerKey(backend, kem as typeof KEM_ID.XWING, kid);
  process.stdout.write(`# Nen server key (${k.kem}), key id ${kid}\n`);
  process.stdout.write(`# server (secret):\nNEN_SERVER_KEYS=${k.env}\n`);
  process.stdout.write(`# client pin (public):\nNEN_SERVER_PIN=${k.pin}\n`);
  const storeKey = randomBytes(32);
  process.stdout.write('# Redis deployments only (secret): wraps session secrets at rest. Set it ONCE, the same on every instance;\n');
  process.stdout.write('# keep the existing value when rotating server keys (replacing it ends every stored session):\n');
  process.stdout.write(`NEN_STORE_KEY=${toBase64Url(storeKey)}\n`);
  storeKey.fill(0);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`nen: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
