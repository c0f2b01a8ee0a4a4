/**
 * SetupBaseS (RFC 9180 §5.1.1) for the OHTTP client's ./hpke.ts context (@noble or Wasm AEAD):
 * the KEM on WebCrypto where ./native-kem.ts says so, else ./hpke.ts setupBaseS. Used by chunked
 * requests (./chunked.ts) and by ./sender-async.ts where WebCrypto lacks the suite's AEAD; it
 * imports ./hpke.ts statically, so a browser page reaches it only through ./fallback.ts.
 *
 * Pitfall: the shared secret is wiped once the context holds its key schedule.
 */
import type { KemId } from '../backend/types.js';
import { wipe } from '../backend/util.js';
import type { WebCryptoKem } from '../backend/webcrypto-kem.js';
import { HpkeContext, setupBaseS } from './hpke.js';
import { nativeKem, ohttpWebCryptoKem } from './native-kem.js';
import type { OhttpKemId } from './suites.js';

/**
 * SetupBaseS(pkR, info): on WebCrypto when the Wasm core is not loaded and the platform has the
 * KEMs, else ./hpke.ts setupBaseS. `webCrypto` is for tests (a given detection).
 */
export async function setupBaseSAsync(
  kem: OhttpKemId,
  aeadId: number,
  pkR: Uint8Array,
  info: Uint8Array,
  webCrypto: () => Promise<WebCryptoKem | undefined> = ohttpWebCryptoKem,
): Promise<{ enc: Uint8Array; ctx: HpkeContext }> {
  const wc = await nativeKem(kem, pkR, webCrypto);
  if (wc) {
    const { enc, sharedSecret } = await wc.encapsulate(kem as KemId, pkR); // nativeKem: never X25519
    const ss = sharedSecret();
    try {
      return { enc, ctx: new HpkeContext(kem, aeadId, ss, info) };
    } finally {
      wipe(ss);
    }
  }
  return setupBaseS(kem, aeadId, pkR, info);
}
