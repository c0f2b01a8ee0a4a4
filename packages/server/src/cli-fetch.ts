/**
 * `nen fetch URL [-X METHOD] [-H 'k: v'] [-d @file|-d text] [--pin PIN] [-o FILE] [-v]`: a
 * curl-like client for debugging a protected route. It runs `@nen/client` (loaded on demand: it
 * must be installed next to @nen/server), prints the decrypted status, headers and body (`-o`
 * writes the body to a file), and with `-v` the handshake (kid, KEM, pin check), the session and
 * the wire versus plaintext size of every sealed record (cli-trace.ts). Exit codes follow the
 * error classes of ERROR_CODES.md (FETCH_USAGE lists them).
 *
 * Pitfalls: without --pin (or NEXT_PUBLIC_NEN_SERVER_KEY) it runs unpinned and says so; `-o`
 * writes a temporary file renamed into place only after the whole body authenticated, so a failed
 * stream never leaves a half-written file; the handshake runs first, so its failures are "not
 * sent" (exit 3) and never confused with a request whose outcome is unknown (exit 4).
 */
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { NenClientOptions, createNenClient as CreateNenClient } from '@nen/client';
import { KEM_ID, parseServerKeyPin } from '@nen/core';
import { type Trace, tracingFetch } from './cli-trace.js';

export const FETCH_USAGE = `usage: nen fetch URL [-X METHOD] [-H 'name: value']... [-d @file | -d text]
                 [--pin PIN]... [--kem xwing|mlkem768] [--session-path PATH]
                 [-o FILE] [-m SECONDS] [-v]
       nen fetch --ohttp URL --key-config FILE|PIN [--relay URL] [...]

Sends one Nen-encrypted request and prints the decrypted status, headers and body.
  -X, --request METHOD   method (default GET, or POST with -d)
  -H, --header 'k: v'    a request header (repeatable); content-type is sealed as nen-type
  -d, --data TEXT|@FILE  the request body (sealed)
  --pin PIN              the server key pin "kid:base64url(publicKey)" (repeatable, newest first;
                         default: $NEXT_PUBLIC_NEN_SERVER_KEY). Without a pin the handshake is
                         authenticated by TLS only (unpinned).
  --kem KEM              KEM of an unpinned handshake (default xwing)
  --session-path PATH    where the session routes are mounted (default /api/nen)
  -o, --output FILE      write the body to FILE (only once it is complete and authenticated)
  -m, --max-time SECONDS whole-exchange timeout (default 30)
  --ohttp                Oblivious HTTP (RFC 9458) instead of a session: no handshake, the request
                         encapsulated to the gateway's pinned key config and posted to --relay
  --key-config FILE|PIN  OHTTP: the gateway's Key Config (a binary or base64url file, or base64url
                         text), or a "sha256:<base64url>" pin checked against the configs the
                         gateway serves at <origin>/.well-known/ohttp-gateway
  --relay URL            OHTTP: where to post (default <origin>/.well-known/ohttp-gateway, direct)
  -v, --verbose          show the handshake (kid, KEM, pin check), the session, and the wire
                         versus plaintext size of each sealed record (on stderr)

Exit codes (the error classes of ERROR_CODES.md):
  0  an authenticated response (whatever its HTTP status)
  1  a local failure (the output file cannot be written)
  2  usage: bad arguments or an unreadable -d @file
  3  not sent: bad pin or input, handshake failed or refused (NEN_HANDSHAKE_FAILED,
     NEN_UNKNOWN_KEY_ID, NEN_RATE_LIMITED, network error, ...); safe to repeat
  4  sent, outcome unknown: no authenticated answer (NEN_OUTCOME_UNKNOWN, NEN_TIMEOUT,
     NEN_RESPONSE_UNAUTHENTICATED, NEN_STREAM_TRUNCATED, an unauthenticated error, ...);
     the handler may have run (at most once)
  5  refused: NEN_RETRY_COMMITTED (the original request ran once; its answer was lost)`;

export interface FetchArgs {
  url: string;
  method: string;
  headers: [string, string][];
  body: Uint8Array | null;
  pins: string[];
  kem: 'xwing' | 'mlkem768';
  sessionPath: string;
  output: string | null;
  timeoutMs: number;
  verbose: boolean;
  ohttp: boolean;
  keyConfig: string | null;
  relay: string | null;
}

class UsageError extends Error {}

function readData(v: string): Uint8Array {
  if (!v.startsWith('@')) return new TextEncoder().encode(v);
  try {
    return new Uint8Array(readFileSync(v.slice(1)));
  } catch (e) {
    throw new UsageError(`cannot read ${v.slice(1)}: ${(e as Error).message}`);
  }
}

/** Parses the arguments after `fetch`; throws UsageError. */
export function parseFetchArgs(argv: readonly string[], env: Record<string, string | undefined>): FetchArgs {
  const a: FetchArgs = {
    url: '',
    method: '',
    headers: [],
    body: null,
    pins: [],
    kem: 'xwing',
    sessionPath: '/api/nen',
    output: null,
    timeoutMs: 30_000,
    verbose: false,
    ohttp: false,
    keyConfig: null,
    relay: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '-X' || flag === '--request') a.method = value().toUpperCase();
    else if (flag === '-H' || flag === '--header') {
      const h = value();
      const at = h.indexOf(':');
      if (at <= 0) throw new UsageError(`bad header ${JSON.stringify(h)} (want 'name: value')`);
      a.headers.push([h.slice(0, at).trim(), h.slice(at + 1).trim()]);
    } else if (flag === '-d' || flag === '--data') a.body = readData(value());
    else if (flag === '--pin') a.pins.push(value());
    else if (flag === '--kem') {
      const k = value();
      if (k !== 'xwing' && k !== 'mlkem768') throw new UsageError('--kem is xwing or mlkem768');
      a.kem = k;
    } else if (flag === '--session-path') a.sessionPath = value();
    else if (flag === '-o' || flag === '--output') a.output = value();
    else if (flag === '-m' || flag === '--max-time') {
      const s = Number(value());
      if (!Number.isFinite(s) || s <= 0 || s > 86400) throw new UsageError('--max-time is a number of seconds in (0, 86400]');
      a.timeoutMs = Math.round(s * 1000);
    } else if (flag === '-v' || flag === '--verbose') a.verbose = true;
    else if (flag === '--ohttp') a.ohttp = true;
    else if (flag === '--key-config') a.keyConfig = value();
    else if (flag === '--relay') a.relay = value();
    else if (flag.startsWith('-')) throw new UsageError(`unknown option ${flag}`);
    else if (a.url) throw new UsageError('one URL only');
    else a.url = flag;
  }
  if (!a.url) throw new UsageError('a URL is required');
  if (!/^https?:\/\//i.test(a.url)) throw new UsageError('the URL must be http:// or https://');
  if (a.ohttp && !a.keyConfig) throw new UsageError('--ohttp needs --key-config FILE|PIN (the gateway key config is pinned)');
  if (!a.ohttp && (a.keyConfig || a.relay)) throw new UsageError('--key-config and --relay need --ohttp');
  if (a.relay && !/^https?:\/\//i.test(a.relay)) throw new UsageError('--relay must be an http:// or https:// URL');
  if (a.pins.length === 0 && env.NEXT_PUBLIC_NEN_SERVER_KEY?.trim()) a.pins.push(env.NEXT_PUBLIC_NEN_SERVER_KEY.trim());
  if (!a.method) a.method = a.body ? 'POST' : 'GET';
  return a;
}

/** --key-config: a "sha256:" pin or base64url text as given, else a file (binary Key Config, or base64url text). */
export function keyConfigArg(v: string): string | Uint8Array {
  if (/^sha256:/.test(v) || (/^[A-Za-z0-9_-]{40,}$/.test(v) && !existsSync(v))) return v;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(v));
  } catch (e) {
    throw new UsageError(`cannot read --key-config ${v}: ${(e as Error).message}`);
  }
  const text = new TextDecoder().decode(bytes).trim();
  return /^[A-Za-z0-9_-]+$/.test(text) ? text : bytes;
}

/** Exit code of an error thrown by the request (after a successful handshake). */
export function exitCodeOf(code: string | undefined): number {
  if (code === 'NEN_RETRY_COMMITTED') return 5;
  if (code === 'NEN_BAD_INPUT' || code === 'NEN_OHTTP_KEY_MISMATCH') return 3;
  return 4;
}

const describeError = (e: unknown) => {
  const x = e as { code?: string; status?: number; message?: string; cause?: { code?: string } };
  return `nen: ${x.message ?? String(e)}${x.code ? ` [${x.code}]` : ''}${x.status ? ` (HTTP ${x.status})` : ''}${x.cause?.code ? ` (cause ${x.cause.code})` : ''}`;
};

/** Writes the body to stdout, or to a temporary file renamed into place once complete. */
async function writeBody(body: ReadableStream<Uint8Array> | null, output: string | null): Promise<number> {
  const tmp = output ? join(dirname(output), `.${basename(output)}.nen-${process.pid}.tmp`) : null;
  const fd = tmp ? openSync(tmp, 'wx', 0o600) : 1;
  let bytes = 0;
  try {
    const reader = body?.getReader();
    for (;;) {
      const r = reader ? await reader.read() : { done: true as const, value: undefined };
      if (r.done) break;
      bytes += r.value.byteLength;
      let off = 0;
      while (off < r.value.byteLength) off += writeSync(fd, r.value, off);
    }
    if (tmp && output) {
      closeSync(fd);
      renameSync(tmp, output);
    }
    return bytes;
  } catch (e) {
    if (tmp) {
      closeSync(fd);
      rmSync(tmp, { force: true });
    }
    throw e;
  }
}

/** Runs `nen fetch`; resolves to the exit code. */
export async function runFetch(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(FETCH_USAGE);
    return 0;
  }
  let args: FetchArgs;
  try {
    args = parseFetchArgs(argv, process.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`nen fetch: ${e.message}\n\n${FETCH_USAGE}`);
    return 2;
  }
  const specifier = '@nen/client';
  let createNenClient: typeof CreateNenClient;
  try {
    ({ createNenClient } = (await import(specifier)) as { createNenClient: typeof CreateNenClient });
  } catch {
    console.error('nen: `nen fetch` needs the @nen/client package installed next to @nen/server');
    return 2;
  }
  const trace: Trace = { verbose: args.verbose, log: (line) => process.stderr.write(`${line}\n`) };
  const url = new URL(args.url);
  const options: NenClientOptions = {
    baseUrl: url.origin,
    sessionPath: args.sessionPath,
    timeoutMs: args.timeoutMs,
    fetch: tracingFetch(trace),
    ...(args.pins.length ? { serverKey: args.pins } : { unpinned: true, kem: args.kem }),
  };
  let client: ReturnType<typeof CreateNenClient>;
  try {
    if (args.ohttp) {
      const gateway = `${url.origin}/.well-known/ohttp-gateway`;
      const relay = args.relay ?? gateway;
      client = createNenClient({ ...options, mode: 'ohttp', relay, keyConfig: keyConfigArg(args.keyConfig as string), keyConfigUrl: gateway });
      if (args.verbose) trace.log(`* OHTTP: no handshake; encapsulated to the pinned key config, posted to ${relay}`);
    } else {
      client = createNenClient(options);
      const info = await client.handshake();
      if (args.verbose) logHandshake(trace, args, info);
    }
  } catch (e) {
    console.error(describeError(e));
    return 3;
  }
  try {
    const headers = new Headers(args.headers);
    const res = await client.fetch(url, { method: args.method, headers, body: args.body as BodyInit | null });
    process.stdout.write(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}\n`);
    res.headers.forEach((v, k) => {
      process.stdout.write(`${k}: ${v}\n`);
    });
    process.stdout.write('\n');
    const n = await writeBody(res.body, args.output);
    if (args.verbose) trace.log(`* response: HTTP ${res.status}, decrypted body ${n} B${args.output ? ` written to ${args.output}` : ''}`);
    return 0;
  } catch (e) {
    console.error(describeError(e));
    const code = (e as { code?: string }).code;
    if (code === 'EEXIST' || code === 'EACCES' || code === 'ENOENT' || code === 'EISDIR') return 1;
    return exitCodeOf(code);
  }
}

function logHandshake(trace: Trace, args: FetchArgs, info: { id: string; expiresAt: number; keyId: string | null; epoch: number }) {
  if (info.keyId) {
    const pin = args.pins.map((p) => parseServerKeyPin(p)).find((p) => p.kid === info.keyId);
    const kem = pin?.kem === KEM_ID.MLKEM768 ? 'ML-KEM-768 (0x0041)' : 'X-Wing (0x647a)';
    trace.log(`* handshake: KEM ${kem}, kid ${info.keyId}: pin check passed (key confirmation verified against the pinned public key)`);
  } else {
    trace.log(`* handshake: KEM ${args.kem === 'mlkem768' ? 'ML-KEM-768 (0x0041)' : 'X-Wing (0x647a)'}, UNPINNED: the server is authenticated by TLS only`);
  }
  trace.log(`* session ${info.id}, epoch ${info.epoch}, expires ${new Date(info.expiresAt).toISOString()}`);
}
