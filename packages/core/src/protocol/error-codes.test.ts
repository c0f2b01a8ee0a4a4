/**
 * ERROR_CODES.md and the code catalog (codes.ts) list exactly the same codes, with the same HTTP
 * statuses for server-sent codes.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_ERRORS, WIRE_ERRORS } from './codes.js';

const md = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../../ERROR_CODES.md'), 'utf8');

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
});
