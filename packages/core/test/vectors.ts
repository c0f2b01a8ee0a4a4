/**
 * Loader for the third-party vectors, vendored byte for byte in `<repo>/vectors/` (provenance,
 * commits and licenses: `vectors/README.md` and the README of each folder): Wycheproof @ dac1dd47,
 * NIST ACVP-Server v1.1.0.43, RFC 8439, and Go 1.26.8's HPKE testdata (`go-hpke/`: rfc9180.json,
 * hpke-pq.json). A missing file throws, so a test that needs it fails: nothing is skipped.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** packages/core/test → repository root. */
export const repoRoot = resolve(here, '../../..');
export const vectorsDir = resolve(repoRoot, 'vectors');

export function readVector<T = unknown>(relPath: string): T {
  return JSON.parse(readFileSync(join(vectorsDir, relPath), 'utf8')) as T;
}

export const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
export const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

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

/** Go's HPKE vectors (`vectors/go-hpke/<name>.json`). */
export function readHpkeVectors(name: 'rfc9180' | 'hpke-pq'): HpkeVector[] {
  return readVector<HpkeVector[]>(`go-hpke/${name}.json`);
}

export interface AeadCase {
  tcId: number;
  key: string;
  iv: string;
  aad: string;
  msg: string;
  ct: string;
  tag: string;
  result: 'valid' | 'invalid' | 'acceptable';
  flags: string[];
}

export function wycheproofChaCha(): AeadCase[] {
  const d = readVector<{ testGroups: { tests: AeadCase[] }[] }>('wycheproof/chacha20_poly1305_test.json');
  return d.testGroups.flatMap((g) => g.tests);
}
