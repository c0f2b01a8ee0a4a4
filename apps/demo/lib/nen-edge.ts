/**
 * The demo's Nen instance for the Edge runtime (app/api/edge/[...path]/route.ts), next to the
 * Node one in ./nen.ts. Only Web APIs: @nen/core's `edge-light` entry (Wasm from embedded bytes),
 * fflate for in-envelope compression, Web Crypto randomness.
 *
 * Pitfalls:
 *  - Edge routes do not share memory with the Node routes (nor, under `next start`, with other
 *    Edge routes), so this instance has its own session routes under /api/edge/nen and its own
 *    in-memory store: clients use `sessionPath: '/api/edge/nen'`. One process / isolate only
 *    (docs/runtimes.md); REDIS_URL does not apply here (Redis needs Node).
 *  - Must not import ./nen.ts (it loads @nen/server/redis → ioredis, Node only).
 */
import { createNen, memoryStore, type Nen } from '@nen/server';

const KEY = Symbol.for('nen.demo.edge');
const holder = globalThis as typeof globalThis & { [KEY]?: Nen };

export const nenEdge: Nen = (holder[KEY] ??= createNen({ store: memoryStore({ name: 'edge' }) }));
