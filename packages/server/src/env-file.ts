/**
 * Appending `NAME=value` lines to a dotenv file (`.env.local`) for `nen keygen --write`, without
 * ever overwriting a name the file already sets.
 *
 * Pitfalls:
 *  - The server key and its pin are a pair: writing a fresh pin next to an existing key (or the
 *    reverse) would make every pinned client fail. When the file sets one of a pair but not the
 *    other, nothing at all is written and the caller gets an EnvFileConflict.
 *  - The file is replaced atomically (temporary file in the same directory, then rename), so a
 *    crash never leaves it half-written; a new file is created with mode 0600 (it holds secrets),
 *    an existing one keeps its mode. A symlinked file is written through to its target.
 *  - Names are detected as `NAME=` or `export NAME=` at the start of a line, as dotenv parses them.
 */
import { chmodSync, existsSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { NenConfigError } from './keys.js';

export interface EnvEntry {
  readonly name: string;
  readonly value: string;
  /** Comment lines written above the entry (without the leading `# `). */
  readonly comment: readonly string[];
}

export interface EnvWriteResult {
  /** Absolute path of the file written (or that would have been written). */
  readonly path: string;
  readonly written: readonly string[];
  /** Names left as they were because the file already sets them. */
  readonly kept: readonly string[];
}

/** The file sets one name of a pair but not the other: nothing was written (code NEN_CONFIG). */
export class EnvFileConflict extends NenConfigError {
  constructor(
    readonly path: string,
    readonly present: string,
    readonly missing: string,
  ) {
    super(
      `${path} sets ${present} but not ${missing}; they must match each other, so nothing was written. Remove ${present} from the file, or add the matching ${missing} by hand`,
    );
    this.name = 'EnvFileConflict';
  }
}

/** The names a dotenv text sets (`NAME=…` or `export NAME=…` at a line start). */
export function envNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=/gm)) names.add(m[1] as string);
  return names;
}

/**
 * Appends the entries the file does not set yet. `pairs` lists groups of names written all or
 * none: a group already complete in the file is kept, a group partly present is an EnvFileConflict.
 */
export function appendEnv(file: string, entries: readonly EnvEntry[], pairs: readonly (readonly string[])[] = []): EnvWriteResult {
  const path = existsSync(file) ? realpathSync(file) : resolve(file);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : null;
  const present = envNames(before ?? '');
  for (const group of pairs) {
    const have = group.filter((n) => present.has(n));
    const miss = group.filter((n) => !present.has(n));
    if (have.length > 0 && miss.length > 0) throw new EnvFileConflict(path, have.join(', '), miss.join(', '));
  }
  const fresh = entries.filter((e) => !present.has(e.name));
  const kept = entries.filter((e) => present.has(e.name)).map((e) => e.name);
  if (fresh.length === 0) return { path, written: [], kept };
  const block = fresh.map((e) => `${e.comment.map((c) => `# ${c}\n`).join('')}${e.name}=${e.value}\n`).join('');
  let text = before ?? '';
  if (text.length > 0 && !text.endsWith('\n')) text += '\n';
  if (text.length > 0) text += '\n';
  text += block;
  const mode = before === null ? 0o600 : statSync(path).mode & 0o777;
  const tmp = join(dirname(path), `.${basename(path)}.nen-${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text, { mode, flag: 'wx' });
    chmodSync(tmp, mode);
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
  return { path, written: fresh.map((e) => e.name), kept };
}
