/**
 * `nen keygen --ohttp [--kem xwing|mlkem768|x25519] [--key-id 0..255]`: a new OHTTP gateway key
 * (RFC 9458 §3), separate from the session keys (§6.4). Prints the NEN_OHTTP_KEYS entry (SECRET)
 * and what clients may pin (public): the Key Config in base64url and its `sha256:` digest.
 *
 * Pitfalls:
 *  - Rotation is the NEN_SERVER_KEYS form: put the new entry first in NEN_OHTTP_KEYS, keep the old
 *    one after it until clients moved on, then drop it. Key ids must differ between live keys
 *    (the default is random: pass --key-id to choose).
 *  - X25519 is not post-quantum: only for clients without PQ support, next to an X-Wing key.
 */
import { OHTTP_KEM, OHTTP_KEM_INFO, type OhttpKemId, encodeKeyConfig, generateOhttpKey, OhttpGatewayKeys, toBase64Url } from '@nen/core';

const KEMS: Record<string, OhttpKemId> = { xwing: OHTTP_KEM.XWING, mlkem768: OHTTP_KEM.MLKEM768, x25519: OHTTP_KEM.X25519 };
const USAGE = 'usage: nen keygen --ohttp [--kem xwing|mlkem768|x25519] [--key-id 0..255]';

export async function runOhttpKeygen(args: readonly string[]): Promise<number> {
  let kem: OhttpKemId = OHTTP_KEM.XWING;
  let keyId = crypto.getRandomValues(new Uint8Array(1))[0] as number;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const v = args[i + 1];
    if (a === '--ohttp') continue;
    if (a === '--kem' && v && KEMS[v] !== undefined) {
      kem = KEMS[v] as OhttpKemId;
      i++;
    } else if (a === '--key-id' && v && /^\d{1,3}$/.test(v) && Number(v) <= 255) {
      keyId = Number(v);
      i++;
    } else {
      console.error(USAGE);
      return 2;
    }
  }
  const entry = generateOhttpKey(keyId, kem);
  const keys = OhttpGatewayKeys.parse(entry);
  const config = encodeKeyConfig(keys.configs()[0] as Parameters<typeof encodeKeyConfig>[0]);
  keys.dispose();
  const pin = `sha256:${toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', config as Uint8Array<ArrayBuffer>)))}`;
  const info = OHTTP_KEM_INFO[kem];
  process.stdout.write(
    [
      `# Nen OHTTP gateway key (${info.name}${info.pq ? '' : ', NOT post-quantum'}), key id ${keyId}. Server only, SECRET.`,
      '# To rotate: put the new entry first, keep the old ones after it (comma-separated) until clients moved on.',
      `NEN_OHTTP_KEYS=${entry}`,
      '# Key Config (public, base64url) and its pin for clients:',
      `# ${toBase64Url(config)}`,
      `# ${pin}`,
      '',
    ].join('\n'),
  );
  return 0;
}
