/**
 * The server key pin handed to the browser: NEN_SERVER_PIN (read at request time, so `next start`
 * picks it up without a rebuild) or NEXT_PUBLIC_NEN_SERVER_KEY. Format "kid:base64url(pk)", as
 * printed by `nen keygen`. Undefined when neither is set: the client then runs unpinned.
 *
 * Pitfall: read per request, so only dynamic pages may call it (the pages use connection()); a
 * prerendered page would bake the build machine's value into its HTML.
 */
export function serverPin(): string | undefined {
  const pin = process.env.NEN_SERVER_PIN || process.env.NEXT_PUBLIC_NEN_SERVER_KEY;
  return pin && pin.trim() !== '' ? pin.trim() : undefined;
}
