/**
 * ./after-io.ts: work queued with afterIo runs after I/O that is ready at the next poll (a socket
 * with unread bytes: strict) and, on a fresh loopback connection, after the connect callback has
 * written the request (one `setImmediate` ran before it: the ordering that put the ahead Encap in
 * front of a cold OHTTP request's first byte); it never keeps the process alive (unref'd).
 */
import { once } from 'node:events';
import { stat } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { afterIo } from './after-io.js';

describe('afterIo', () => {
  /** From an I/O callback (the poll phase, where a client's fetch starts connecting): `start`, one setImmediate and afterIo; the order seen. */
  const orderFrom = (start: (seen: string[]) => () => void): Promise<string[]> =>
    new Promise((resolve) => {
      stat(import.meta.filename ?? '.', () => {
        const seen: string[] = [];
        const stop = start(seen);
        setImmediate(() => seen.push('one immediate'));
        expect(afterIo(() => seen.push('afterIo'))).toBe(true);
        setTimeout(() => {
          stop();
          resolve(seen);
        }, 20);
      });
    });

  it('runs after I/O that is ready at the next poll; a single setImmediate runs before it', async () => {
    const server = net.createServer((s) => void setTimeout(() => s.end('answer'), 5));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      for (let i = 0; i < 5; i++) {
        const socket = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
        socket.pause(); // not read: the answer (sent 5 ms after the connect) stays in the kernel's buffer
        await once(socket, 'connect');
        await new Promise((r) => setTimeout(r, 20));
        const order = await orderFrom((seen) => {
          socket.once('data', () => seen.push('read'));
          socket.resume();
          return () => socket.destroy();
        });
        expect(order).toEqual(['one immediate', 'read', 'afterIo']);
      }
    } finally {
      server.close();
    }
  });

  it("runs after a fresh loopback connection's write (when the connect is done by the next poll)", async () => {
    const server = net.createServer((s) => s.resume());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const orders: string[][] = [];
      for (let i = 0; i < 5; i++) {
        orders.push(
          await orderFrom((seen) => {
            const socket = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1', () => {
              socket.write('request');
              seen.push('write');
            });
            return () => socket.destroy();
          }),
        );
      }
      for (const o of orders) expect(o[0]).toBe('one immediate');
      // a loaded machine may finish a connect a poll later; a single setImmediate is never after the write
      expect(orders.filter((o) => o.indexOf('write') < o.indexOf('afterIo')).length).toBeGreaterThanOrEqual(1);
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
