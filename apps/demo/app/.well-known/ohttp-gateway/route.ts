/**
 * The OHTTP gateway resource (RFC 9540 discovery path): GET answers `application/ohttp-keys`, POST
 * takes `message/ohttp-req` / `message/ohttp-chunked-req` (lib/ohttp.ts; PROTOCOL.md §11).
 * Pitfall: the gateway is built on first use, so `next build` needs no keys.
 */
import { ohttpGateway } from '../../../lib/ohttp';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = () => ohttpGateway().GET();
export const POST = (request: Request) => ohttpGateway().POST(request);
