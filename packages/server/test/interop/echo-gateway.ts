/**
 * The gateway the OHTTP interop tests talk to: our OHTTP gateway (keys 1 = X-Wing, 2 = X25519)
 * in front of a withNen echo handler at /api/echo (answers `{ path, body }`), served by
 * node:http on 127.0.0.1 (a free port).
 * Pitfall: `close()` stops the HTTP server before closing Nen's store; call it in afterAll even
 * when start-up failed half way (it tolerates a server that never listened).
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OHTTP_KEM, generateOhttpKey } from '@nen/core';
import { toNodeHandler } from '../../src/adapters/node-http.js';
import { createNen, memoryStore } from '../../src/index.js';

export interface EchoGateway {
  /** http://127.0.0.1:<port>/.well-known/ohttp-gateway */
  readonly url: string;
  close(): Promise<void>;
}

export async function startEchoGateway(): Promise<EchoGateway> {
  const nen = createNen({ store: memoryStore(), logger: () => {} });
  const keys = `${generateOhttpKey(1, OHTTP_KEM.XWING)},${generateOhttpKey(2, OHTTP_KEM.X25519)}`;
  const echo = nen.withNen(async (req, _ctx, body) => ({ path: new URL(req.url).pathname, body }));
  const gateway = nen.ohttpGateway({ keys, routes: { '/api/echo': { POST: echo } } });
  let server: Server | undefined;
  const close = async () => {
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    await nen.close();
  };
  try {
    server = createServer(toNodeHandler(gateway.fetch));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  } catch (e) {
    await close();
    throw e;
  }
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/ohttp-gateway`, close };
}
