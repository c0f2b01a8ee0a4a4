/**
 * `nen relay --gateway URL [--port N] [--host H]`: the development OHTTP relay (relay.ts) on
 * node:http. Prints the URL it listens on; stops on SIGINT / SIGTERM.
 *
 * Pitfalls: it listens on 127.0.0.1 by default (a relay open to the world is an open forwarder
 * to the gateway); the gateway URL is fixed at start, never taken from a request.
 */
import { createServer } from 'node:http';
import { toNodeHandler } from './adapters/node-http.js';
import { createOhttpRelay } from './relay.js';

export const RELAY_USAGE = `usage: nen relay --gateway URL [--port N] [--host HOST]

A minimal Oblivious HTTP relay for development and tests: forwards POSTs of message/ohttp-req and
message/ohttp-chunked-req to the one gateway URL, with no client-identifying header.
  --gateway URL  the gateway resource (e.g. http://127.0.0.1:3000/.well-known/ohttp-gateway)
  --port N       port to listen on (default 8787; 0 picks a free one)
  --host HOST    address to listen on (default 127.0.0.1)`;

export function parseRelayArgs(argv: readonly string[]): { gateway: URL; port: number; host: string } | string {
  let gateway: URL | undefined;
  let port = 8787;
  let host = '127.0.0.1';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const v = argv[i + 1];
    if ((a === '--gateway' || a === '--port' || a === '--host') && v === undefined) return `nen relay: ${a} needs a value\n${RELAY_USAGE}`;
    if (a === '--gateway') {
      try {
        gateway = new URL(v as string);
      } catch {
        return `nen relay: --gateway ${v} is not a URL`;
      }
      if (gateway.protocol !== 'http:' && gateway.protocol !== 'https:') return 'nen relay: --gateway must be an http(s) URL';
    } else if (a === '--port') {
      port = Number(v);
      if (!Number.isInteger(port) || port < 0 || port > 65535) return `nen relay: --port ${v} is not a port`;
    } else if (a === '--host') host = v as string;
    else return `nen relay: unknown argument ${a}\n${RELAY_USAGE}`;
    i++;
  }
  if (!gateway) return `nen relay: --gateway is required\n${RELAY_USAGE}`;
  return { gateway, port, host };
}

export async function runRelay(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(RELAY_USAGE);
    return 0;
  }
  const args = parseRelayArgs(argv);
  if (typeof args === 'string') {
    console.error(args);
    return 2;
  }
  const relay = createOhttpRelay({ gateway: args.gateway });
  const server = createServer(toNodeHandler((req) => relay(req)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(args.port, args.host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : args.port;
  console.log(`nen relay: http://${args.host}:${port}/ -> ${args.gateway.href}`);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
