/**
 * Derandomized SetupBaseS per backend (test-only hazmat): noble's own function, and the Wasm
 * `hazmat_setup_base_s_export_derand` for the Wasm and node backends.
 */
import { setupBaseSExportDerand } from '../src/backend/noble.js';
import type { Backend, HpkeSenderExport, KemId } from '../src/index.js';

export async function derandSetupS(
  b: Backend,
  kem: KemId,
  pk: Uint8Array,
  info: Uint8Array,
  ctx: Uint8Array,
  length: number,
  ikmE: Uint8Array,
): Promise<HpkeSenderExport> {
  if (b.name === 'noble') return setupBaseSExportDerand(kem, pk, info, ctx, length, ikmE);
  const { hazmat } = await import('../src/hazmat.js');
  return hazmat().setupBaseSExportDerand(kem, pk, info, ctx, length, ikmE);
}
