// The handshake on its own static route: Next.js matches a static segment before the `[action]`
// catch-all, and skips the dynamic-route work (~25 µs of server CPU per handshake, measured with
// `node bench/profile-requests.js --modes plain,handshake --pin`). The other session endpoints stay
// on `../[action]/route.ts`; `nen.routes` dispatches on the last path segment either way (GET here
// answers 405 with its code, as the catch-all does).
// Pitfall: it must use the same `nen` (lib/nen, held on globalThis) as every other route: a second
// createNen() here would make sessions the other routes do not know.
import { nen } from '../../../../lib/nen';

export const { GET, POST } = nen.routes;
