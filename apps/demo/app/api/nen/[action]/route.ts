// Nen session endpoints (handshake, rotate, terminate, status, keys), all from one catch-all route.
// Pitfall: Next.js matches ../handshake/route.ts before this catch-all; both export the routes of
// the one lib/nen instance, so a session made there is known here (one key set, one store).
import { nen } from '../../../../lib/nen';

export const { GET, POST } = nen.routes;
