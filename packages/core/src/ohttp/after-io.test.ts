/**
 * ./after-io.ts: work queued with afterIo while a fresh loopback connection opens runs after the
 * connect callback has written the request (one `setImmediate` ran before it: the ordering that
 * put the ahead Encap in front of a cold OHTTP request's first byte), and it never keeps the
 * process alive (unref'd).
 */
import { once } from 'node:events';
import { stat } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { afterIo } from './after-io.js';

describe('afterIo', () => {
  it("runs after a fresh loopback connection's write; a single setImmediate runs before it", async () => {
    const server = net.createServer((s) => s.resume());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as net.AddressInfo;
    try {
      for (let i = 0; i < 5; i++) {
        // started from an I/O callback (the poll phase), as a client's fetch opens its connection
        const order = await new Promise<string[]>((resolve) => {
          stat(import.meta.filename ?? '.', () => {
            const seen: string[] = [];
            const socket = net.connect(port, '127.0.0.1', () => {
              socket.write('request');
              seen.push('write');
            });
            setImmediate(() => seen.push('one immediate'));
            expect(afterIo(() => seen.push('afterIo'))).toBe(true);
            setTimeout(() => {
              socket.destroy();
              resolve(seen);
            }, 20);
          });
        });
        expect(order).toEqual(['one immediate', 'write', 'afterIo']);
      }
    } finally {
      server.close();
    }
  });

  it("keeps no process alive: no ref'd Immediate while it waits, none after its first step", async () => {
    const refd = () => process.getActiveResourcesInfo().filter((r) => r === 'Immediate').length;
    const before = refd();
    let ran = false;
    afterIo(() => {
      ran = true;
    });
    expect(refd()).toBe(before);
    await new Promise((r) => setImmediate(r));
    expect(refd()).toBe(before);
    expect(ran).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(ran).toBe(true);
  });
});
