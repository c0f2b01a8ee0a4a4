/**
 * `nen seal` / `nen open` (also the `nen-seal` bin): age files on stdin → stdout, streaming.
 *
 *   nen seal -r RECIPIENT [-r RECIPIENT…] [-R FILE] [-a] [--allow-mixed-recipients] [-o OUT]
 *   nen open -i KEYFILE [-i KEYFILE…] [-o OUT]
 *
 * RECIPIENT: age1pq1… (post-quantum), age1… (X25519), or a Nen pin kid:base64url (from
 * `nen keygen`). KEYFILE: AGE-SECRET-KEY-PQ-1… / AGE-SECRET-KEY-1… lines, or the
 * NEN_SERVER_KEYS=… line of `nen keygen` (X-Wing keys), # comments allowed.
 *
 * Pitfalls, the failure behaviour (exit 1, `nen: <message> [NEN_SEAL_…]` on stderr):
 *  - wrong key, damaged header, bad MAC: detected before any plaintext, nothing is written;
 *  - damaged payload with -o: the output is written to a temporary file renamed into place only
 *    after the last chunk authenticates, so nothing is written;
 *  - damaged payload to stdout: STREAM releases chunks as they authenticate, so the verified
 *    chunks before the damage have been written; the exit status says the output is incomplete.
 * Usage errors exit 2 (`nen: <message> [NEN_SEAL_USAGE]`, then the usage).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open as openFile, rename, unlink } from 'node:fs/promises';
import { NenError } from '@nen/core';
import { toRecipients } from './age.js';
import { NenSealError } from './errors.js';
import { parseIdentityFile } from './keys.js';
import { webReadableFromNode } from './node-stream.js';
import { createOpenStream, createSealStream } from './streams.js';

export interface CliIo {
  stdin: ReadableStream<Uint8Array>;
  stdout: { write(chunk: Uint8Array): Promise<void> | void };
  stderr: (line: string) => void;
}

const USAGE = `usage: nen seal -r RECIPIENT [-r RECIPIENT…] [-R RECIPIENTS_FILE] [-a] [--allow-mixed-recipients] [-o OUT]  < plaintext > sealed
       nen open -i KEYFILE [-i KEYFILE…] [-o OUT]                                                        < sealed > plaintext

RECIPIENT: age1pq1… (post-quantum), age1… (X25519) or a Nen pin kid:base64url (nen keygen).
KEYFILE: AGE-SECRET-KEY-PQ-1… / AGE-SECRET-KEY-1… lines or a NEN_SERVER_KEYS=… line.
-a: ASCII armor. Armored input is detected by open. -o: written only when complete.
--allow-mixed-recipients: seal to post-quantum and X25519 recipients together (the file is then
only as strong as X25519 against a quantum adversary).
open to stdout streams: on a damaged payload the chunks verified before the damage were
written, and the exit status is 1.`;

interface Args {
  cmd: 'seal' | 'open';
  recipients: string[];
  keyFiles: string[];
  armor: boolean;
  allowMixed: boolean;
  out: string | null;
}

function usage(msg: string): never {
  throw new NenSealError('NEN_SEAL_USAGE', msg);
}

function parseArgs(argv: readonly string[]): Args {
  const [cmd, ...rest] = argv;
  if (cmd !== 'seal' && cmd !== 'open') usage(`unknown command ${cmd ?? '(none)'}`);
  const a: Args = { cmd, recipients: [], keyFiles: [], armor: false, allowMixed: false, out: null };
  for (let i = 0; i < rest.length; i++) {
    const f = rest[i] as string;
    const v = rest[i + 1];
    const need = (): string => {
      if (v === undefined) usage(`${f} needs a value`);
      i++;
      return v;
    };
    if (cmd === 'seal' && (f === '-r' || f === '--recipient')) a.recipients.push(need());
    else if (cmd === 'seal' && (f === '-R' || f === '--recipients-file')) a.recipients.push(...recipientLines(need()));
    else if (cmd === 'seal' && (f === '-a' || f === '--armor')) a.armor = true;
    else if (cmd === 'seal' && f === '--allow-mixed-recipients') a.allowMixed = true;
    else if (cmd === 'open' && (f === '-i' || f === '--identity')) a.keyFiles.push(need());
    else if (f === '-o' || f === '--output') a.out = need();
    else usage(`unknown option ${f}`);
  }
  if (cmd === 'seal' && a.recipients.length === 0) usage('nen seal needs at least one -r RECIPIENT');
  if (cmd === 'open' && a.keyFiles.length === 0) usage('nen open needs at least one -i KEYFILE');
  return a;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new NenSealError('NEN_SEAL_KEY', `nen: cannot read ${path}`);
  }
}

function recipientLines(path: string): string[] {
  return readText(path)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .filter((l) => !/^[A-Z][A-Z0-9_]*=/.test(l) || /^(NEN_SERVER_PIN|NEXT_PUBLIC_NEN_SERVER_KEY)=/.test(l));
}

async function pump(stream: ReadableStream<Uint8Array>, write: (c: Uint8Array) => Promise<void> | void): Promise<void> {
  const r = stream.getReader();
  for (;;) {
    const { done, value } = await r.read();
    if (done) return;
    try {
      await write(value);
    } catch (e) {
      // The output failed (disk full, closed pipe): stop reading and release the input.
      await r.cancel(e).catch(() => undefined);
      throw e;
    }
  }
}

/** Writes to OUT via a temporary file renamed into place on success; removed on failure. */
async function toFile(out: string, stream: ReadableStream<Uint8Array>): Promise<void> {
  const tmp = `${out}.nen-${randomBytes(6).toString('hex')}.tmp`;
  const fh = await openFile(tmp, 'wx', 0o600);
  try {
    await pump(stream, async (c) => {
      await fh.write(c);
    });
    await fh.close();
    await rename(tmp, out);
  } catch (e) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

async function execute(a: Args, io: CliIo): Promise<void> {
  const transform =
    a.cmd === 'seal'
      ? createSealStream(toRecipients(a.recipients, a.allowMixed, 'pass --allow-mixed-recipients to override'), { armor: a.armor, allowMixedRecipients: true })
      : createOpenStream(a.keyFiles.flatMap((f) => parseIdentityFile(readText(f))));
  const output = io.stdin.pipeThrough(transform);
  if (a.out) await toFile(a.out, output);
  else await pump(output, (c) => io.stdout.write(c));
}

/** Runs the CLI; returns the exit status (0 ok, 1 failure, 2 usage). Never throws. */
export async function runSealCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[1] === '--help' || argv[1] === '-h') {
    io.stderr(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  try {
    await execute(parseArgs(argv), io);
    return 0;
  } catch (e) {
    if (e instanceof NenSealError && e.code === 'NEN_SEAL_USAGE') {
      io.stderr(`nen: ${e.message.replace(/^nen: /, '')} [NEN_SEAL_USAGE]\n${USAGE}`);
      return 2;
    }
    const msg = e instanceof Error ? e.message.replace(/^nen: /, '') : String(e);
    io.stderr(`nen: ${msg}${e instanceof NenError ? ` [${e.code}]` : ''}`);
    return 1;
  }
}

/** The process's stdin / stdout (with back-pressure) / stderr. */
export function processIo(): CliIo {
  return {
    stdin: webReadableFromNode(process.stdin),
    stdout: {
      write: (c) =>
        new Promise<void>((resolve, reject) => {
          process.stdout.write(c, (err) => (err ? reject(err) : resolve()));
        }),
    },
    stderr: (line) => process.stderr.write(`${line}\n`),
  };
}
