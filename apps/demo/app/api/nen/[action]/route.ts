// Nen session endpoints (handshake, rotate, terminate, status, keys), all from one catch-all route.
import { nen } from '../../../../lib/nen';

export const { GET, POST } = nen.routes;
