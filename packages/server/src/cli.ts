#!/usr/bin/env node
/**
 * `nen` CLI. `nen keygen [--kem xwing|mlkem768] [--kid <id>] [--write[=<file>]]` generates a
 * long-term server KEM key (HPKE serialized private key = seed; X-Wing draft-ietf-hpke-pq by
 * default, or ML-KEM-768 FIPS 203) and gives three environment variables:
 *   NEN_SERVER_KEYS             server only, secret: the private key(s) `createNen()` reads;
 *   NEXT_PUBLIC_NEN_SERVER_KEY  public: the pin; `nenFetch` / `createNenClient()` pin to it with
 *                               no code (Next.js inlines NEXT_PUBLIC_* into client bundles at build);
 *   NEN_STORE_KEY               shared stores (Redis, Workers Durable Objects), secret: 32 random
 *                               bytes, base64url.
 * Without --write they are printed as a dotenv block (comments say where each goes); with --write
 * they are appended to `.env.local` (or the given file), never overwriting a name already set.
 * `nen fetch URL ...` (cli-fetch.ts) sends one encrypted request with @nen/client, curl-like.
 *
 * Pitfalls: the secrets go to stdout only in print mode, for the operator to put into a secret
 * store; --write prints names and the (public) pin only. The key and its pin are written together
 * or not at all (env-file.ts). NEN_STORE_KEY is set once per deployment and kept across server key
 * rotations: replacing it makes every session stored in Redis or a Durable Object unreadable.
 */
import { randomBytes } from 'node:crypto';
import { KEM_ID, loadBackend, toBase64Url } from '@nen/core';
import { appendEnv, EnvFileConflict, type EnvEntry } from './env-file.js';
import { generateServerKey } from './keys.js';

const USAGE = `usage: nen keygen [--kem xwing|mlkem768] [--kid <id>] [--write[=<file>]]
       nen keygen --ohttp [--kem xwing|mlkem768|x25519] [--key-id 0..255]  (an OHTTP gateway key: NEN_OHTTP_KEYS)
       nen fetch URL [-X METHOD] [-H 'k: v'] [-d @file|-d text] [--pin PIN] [-o FILE] [-v]  (nen fetch --help)
       nen relay --gateway URL [--port N] [--host HOST]  (a development OHTTP relay; nen relay --help)

Generates a Nen server key and prints three environment variables:
  NEN_SERVER_KEYS             server only, SECRET. Read by createNen(). To rotate, append
                              ",<new entry>" to the existing value: every listed key is live.
  NEXT_PUBLIC_NEN_SERVER_KEY  public: the client pin. nenFetch / createNenClient() pin to it with
                              no code (Next.js inlines it into the browser bundle at next build).
                              During a rotation: createNenClient({ serverKey: [newPin, oldPin] }).
  NEN_STORE_KEY               shared stores only (Redis: REDIS_URL; Cloudflare Workers: the Worker
                              that exports NenSessionObject), SECRET: set it once, the same on
                              every instance, and keep it when rotating server keys.

  --write         append them to .env.local in the current directory (Next.js loads it for
                  next dev / build / start). Names the file already sets are kept, not replaced.
  --write=<file>  the same, into <file>.
In production, put the secrets in your host's secret settings instead of a file.`;

interface KeygenArgs {
  kem: typeof KEM_ID.XWING | typeof KEM_ID.MLKEM768;
  kid: string;
  write: string | null;
}

/** Parses `keygen` options; a string is a usage error to print. */
function parseKeygenArgs(rest: readonly string[]): KeygenArgs | string {
  const args: KeygenArgs = {
    kem: KEM_ID.XWING,
    kid: `k${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`,
    write: null,
  };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    const v = rest[i + 1];
    if (a === '--kem' && v) {
      if (v === 'xwing') args.kem = KEM_ID.XWING;
      else if (v === 'mlkem768') args.kem = KEM_ID.MLKEM768;
      else return `nen: unknown --kem ${v} (xwing | mlkem768)`;
      i++;
    } else if (a === '--kid' && v) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(v)) return 'nen: --kid must be 1-32 of A-Z a-z 0-9 _ -';
      args.kid = v;
      i++;
    } else if (a === '--write') {
      args.write = '.env.local';
    } else if (a.startsWith('--write=') && a.length > '--write='.length) {
      args.write = a.slice('--write='.length);
    } else {
      return USAGE;
    }
  }
  return args;
}

/** The three variables with the comment that says where each goes. */
function entries(kemName: string, kid: string, env: string, pin: string, storeKey: string): EnvEntry[] {
  return [
    {
      name: 'NEN_SERVER_KEYS',
      value: env,
      comment: [`Nen server key (${kemName}), key id ${kid}. Server only, SECRET: never commit it, never prefix it with NEXT_PUBLIC_.`],
    },
    {
      name: 'NEXT_PUBLIC_NEN_SERVER_KEY',
      value: pin,
      comment: ['Nen client pin (public): nenFetch / createNenClient() pin the server key to it with no code.'],
    },
    {
      name: 'NEN_STORE_KEY',
      value: storeKey,
      comment: [
        'Nen, shared stores only (Redis, Workers Durable Objects), SECRET: wraps session secrets at rest. Set it ONCE, the same on',
        'every instance; keep it when rotating server keys (replacing it ends every stored session).',
      ],
    },
  ];
}

async function keygen(args: KeygenArgs): Promise<number> {
  const backend = await loadBackend('auto');
  const k = generateServerKey(backend, args.kem, args.kid);
  const storeKey = randomBytes(32);
  const list = entries(k.kem, args.kid, k.env, k.pin, toBase64Url(storeKey));
  storeKey.fill(0);
  if (args.write === null) {
    process.stdout.write('# Put these lines in .env.local (Next.js loads it for next dev, build and start; `nen keygen --write`\n');
    process.stdout.write("# appends them for you) or in your host's environment settings.\n");
    for (const e of list) process.stdout.write(`${e.comment.map((c) => `# ${c}\n`).join('')}${e.name}=${e.value}\n`);
    return 0;
  }
  try {
    const r = appendEnv(args.write, list, [['NEN_SERVER_KEYS', 'NEXT_PUBLIC_NEN_SERVER_KEY']]);
    if (r.written.length > 0) process.stdout.write(`nen: wrote ${r.written.join(', ')} to ${r.path}\n`);
    if (r.written.includes('NEXT_PUBLIC_NEN_SERVER_KEY')) process.stdout.write(`nen: client pin (public): ${k.pin}\n`);
    if (r.kept.length > 0) {
      process.stdout.write(`nen: kept ${r.kept.join(', ')}: already set in ${r.path} (not overwritten).\n`);
      if (r.kept.includes('NEN_SERVER_KEYS'))
        process.stdout.write('nen: to rotate the server key, run `nen keygen` and append its entry to NEN_SERVER_KEYS by hand.\n');
    }
    if (r.written.length === 0) process.stdout.write('nen: nothing written.\n');
    return 0;
  } catch (e) {
    if (e instanceof EnvFileConflict) {
      console.error(`nen: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

/** `nen seal` / `nen open` live in @nen/seal (optional): loaded only when asked for. */
async function sealCli(argv: string[]): Promise<number> {
  const specifier = '@nen/seal/cli';
  let mod: { runSealCli(argv: readonly string[]): Promise<number> };
  try {
    mod = await import(specifier);
  } catch {
    console.error('nen: `nen seal` / `nen open` need the @nen/seal package installed next to @nen/server');
    return 2;
  }
  return mod.runSealCli(argv);
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === 'seal' || cmd === 'open') return sealCli(argv);
  if (cmd === 'fetch') return (await import('./cli-fetch.js')).runFetch(rest);
  if (cmd === 'relay') return (await import('./relay-cli.js')).runRelay(rest);
  if (cmd === 'keygen' && rest.includes('--ohttp')) return (await import('./ohttp/keygen-cli.js')).runOhttpKeygen(rest);
  if (cmd !== 'keygen') {
    console.error(USAGE);
    return cmd === undefined || cmd === '--help' || cmd === '-h' ? 0 : 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const args = parseKeygenArgs(rest);
  if (typeof args === 'string') {
    console.error(args);
    return 2;
  }
  return keygen(args);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`nen: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
