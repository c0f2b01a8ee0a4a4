/**
 * ERROR_CODES.md is the one catalog of error codes:
 *  - its server and client tables list exactly the codes of codes.ts (WIRE_ERRORS with the same
 *    HTTP statuses, CLIENT_ERRORS);
 *  - every code declared or thrown in the sources of @nen/core, @nen/client, @nen/server (string
 *    literals 'NEN_…' that are not environment variable names) and in the Rust crate
 *    (crates/nen-core/src, "NEN_…" literals) is listed, and every listed code is one of those.
 *
 * Pitfall: environment variable names share the NEN_ prefix; a name counts as one when the sources
 * read it as such (`env('NEN_X')`, `envInt('NEN_X', …)`, `process.env.NEN_X`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_ERRORS, WIRE_ERRORS } from '../src/protocol/codes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const md = readFileSync(join(root, 'ERROR_CODES.md'), 'utf8');
const PACKAGES = ['core', 'client', 'server'];

function files(dir: string, ext: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ext) && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));
}

const tsSources = PACKAGES.flatMap((p) => files(join(root, 'packages', p, 'src'), '.ts')).map((f) => readFileSync(f, 'utf8'));
const rustSources = files(join(root, 'crates/nen-core/src'), '.rs').map((f) => readFileSync(f, 'utf8'));

const envNames = new Set(
  tsSources.flatMap((t) => [...t.matchAll(/(?:\benv(?:Int)?\(\s*'|process\.env\.|process\.env\[')(NEN_[A-Z0-9_]+)/g)].map((m) => m[1]!)),
);
const tsCodes = new Set(tsSources.flatMap((t) => [...t.matchAll(/'(NEN_[A-Z0-9_]+)'/g)].map((m) => m[1]!)).filter((c) => !envNames.has(c)));
for (const k of [...Object.keys(WIRE_ERRORS), ...Object.keys(CLIENT_ERRORS)]) tsCodes.add(k);
const rustCodes = new Set(rustSources.flatMap((t) => [...t.matchAll(/"(NEN_[A-Z0-9_]+)"/g)].map((m) => m[1]!)));
const listed = new Set([...md.matchAll(/^\| `(NEN_[A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));

describe('ERROR_CODES.md', () => {
  it('documents every server code with its status, and no other', () => {
    const section = md.slice(md.indexOf('## Sent by the server'), md.indexOf('## Raised by the client'));
    const rows = [...section.matchAll(/^\| `(NEN_[A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(WIRE_ERRORS).map(([k, v]) => [k, v.status])));
  });
  it('documents every client code, and no other', () => {
    const section = md.slice(md.indexOf('## Raised by the client'), md.indexOf('## Other codes'));
    const codes = [...section.matchAll(/^\| `(NEN_[A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(codes.sort()).toEqual(Object.keys(CLIENT_ERRORS).sort());
  });
  it('lists every code declared or thrown in TypeScript (core, client, server) and in the Rust crate', () => {
    expect(rustCodes.size).toBeGreaterThanOrEqual(6);
    expect(envNames.has('NEN_SERVER_KEYS')).toBe(true);
    const missing = [...tsCodes, ...rustCodes].filter((c) => !listed.has(c));
    expect(missing, 'codes missing from ERROR_CODES.md').toEqual([]);
  });
  it('lists no code that the sources do not declare or throw', () => {
    const unknown = [...listed].filter((c) => !tsCodes.has(c) && !rustCodes.has(c));
    expect(unknown, 'codes in ERROR_CODES.md that nothing declares or throws').toEqual([]);
  });
});
