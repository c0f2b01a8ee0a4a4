/**
 * The client of the OHTTP cold figure's floor (issue 23; ./server.mjs POST /floor/ohttp): RFC 9458
 * §4.3 / §4.4 cryptography alone around a plain POST of the echo's body, on @nen/core's own
 * primitives as @nen/client's OHTTP mode uses them (the key config parsed once per process, the
 * Wasm KEM awaited, `encapsulateRequestAsync` with its SetupBaseS computed ahead, `openResponse`).
 * No Binary HTTP, no Date, no client object, Headers or deadline: what a request in OHTTP mode
 * cannot do without, so `floor - plain` is the least any client + gateway on these primitives adds
 * cold, and `ohttp - floor` what @nen/client and @nen/server add on top of it.
 *
 * Pitfalls: a bench tool only (a real client must check the answer's media type, bound its body
 * and carry a Date); throws on a non-200 or an answer that does not open.
 */
import { fromBase64Url } from '@nen/core';
import { encapsulateRequestAsync, ohttpKemReady, parseKeyConfig } from '@nen/core/ohttp/client';

const configs = new Map(); // key config (base64url) -> parsed, bounded by the configs a bench run uses
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** POSTs `body` (a string) encapsulated to `keyConfig` at `url` with `f` (a fetch); resolves with the opened echo. */
export async function floorFetch(f, url, keyConfig, body) {
  let config = configs.get(keyConfig);
  if (!config) {
    if (configs.size >= 4) configs.clear();
    config = parseKeyConfig(fromBase64Url(keyConfig));
    configs.set(keyConfig, config);
  }
  await ohttpKemReady();
  const e = await encapsulateRequestAsync(config, encoder.encode(body));
  const r = await f(url, { method: 'POST', headers: { 'content-type': 'message/ohttp-req' }, body: e.encapsulatedRequest });
  const wire = new Uint8Array(await r.arrayBuffer());
  if (r.status !== 200) throw new Error(`floor: status ${r.status}`);
  return decoder.decode(await e.openResponse(wire));
}
