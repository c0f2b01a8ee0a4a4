/**
 * Loader for the third-party vectors. They live outside the repository in `../shared/vectors/`
 * relative to the repository root (provenance: that folder's README: Wycheproof @ dac1dd47,
 * NIST ACVP-Server v1.1.0.43, RFC 8439), and the HPKE vectors ship with Go
 * (`$(go env GOROOT)/src/crypto/hpke/testdata/`: rfc9180.json, hpke-pq.json). Never copied here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** packages/core/test → repository root. */
export const repoRoot = resolve(here, '../../..');
export const vectorsDir = resolve(repoRoot, '../shared/vectors');

export function readVector<T = any>(relPath: string): T {
  return JSON.parse(readFileSync(join(vectorsDir, relPath), 'utf8')) as T;
}

export const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
export const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The Go HPKE testdata directory, or null when go is not installed. */
export function goHpkeTestdata(): string | null {
  const candidates = [process.env.GOROOT, '/usr/local/go'].filter(Boolean) as string[];
  try {
    const goroot = execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8', env: { ...process.env, PATH: `${process.env.PATH}:/usr/local/go/bin` } }).trim();
    candidates.unshift(goroot);
  } catch {
    /* go absent from PATH: try the candidates */
  }
  for (const c of candidates) {
    const d = join(c, 'src/crypto/hpke/testdata');
    if (existsSync(join(d, 'hpke-pq.json'))) return d;
  }
  return null;
}

export interface HpkeVector {
  mode: number;
  kem_id: number;
  kdf_id: number;
  aead_id: number;
  info: string;
  ikmE: string;
  ikmR: string;
  skRm: string;
  pkRm: string;
  enc: string;
  shared_secret?: string;
  suite_id?: string;
  key?: string;
  base_nonce?: string;
  exporter_secret?: string;
  encryptions?: { aad: string; ct: string; nonce: string; pt: string }[];
  exports?: { exporter_context: string; L: number; exported_value: string }[];
  encryptions_accumulated?: string;
  exports_accumulated?: string;
}

export function readHpkeVectors(name: 'rfc9180' | 'hpke-pq'): HpkeVector[] | null {
  const d = goHpkeTestdata();
  if (!d) return null;
  return JSON.parse(readFileSync(join(d, `${name}.json`), 'utf8')) as HpkeVector[];
}

export interface AeadCase { tcId: number; key: string; iv: string; aad: string; msg: string; ct: string; tag: string; result: 'valid' | 'invalid' | 'acceptable'; flags: string[] }

export function wycheproofChaCha(): AeadCase[] {
  const d = readVector<{ testGroups: { tests: AeadCase[] }[] }>('wycheproof/chacha20_poly1305_test.json');
  return d.testGroups.flatMap((g) => g.tests);
}
