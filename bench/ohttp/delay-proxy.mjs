/**
 * The OHTTP bench's delaying TCP proxy (bench/stages/ohttp.js, ./cold-split.mjs): to
 * 127.0.0.1:port, every chunk read from either side written on `oneWayMs` later (order kept), an
 * end passed on as late, so each round trip of data costs 2 x oneWayMs as on a network (the TCP
 * handshake itself is not delayed).
 *
 * `startDelayProxy` runs it in a worker thread, its own event loop: a network carries the bytes a
 * client wrote while that client goes on computing. In the client's own event loop (where it ran
 * until issue 23's tenth pass) a chunk was read, and its delay started, only when the client's
 * JavaScript yielded, so any work a client did after writing (the OHTTP sender's encapsulation
 * ahead, ~0.3-0.5 ms cold) was added to its round trip; a mode that does nothing after writing
 * (plain) paid nothing. Same delays for every mode; only who waits for the client's thread changes.
 *
 * Pitfalls: loopback only; `close()` destroys every socket and ends the worker (never left
 * running). `log: true` keeps, per connection (at most 1,000), each chunk as [direction 'req' |
 * 'res', read at, bytes, written at] in process.hrtime ms, read and cleared by `readLog()`.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readlinkSync } from 'node:fs';
import net from 'node:net';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** The proxy in this thread: { port, log, close }. */
async function listen(port, oneWayMs, keepLog) {
  const sockets = new Set();
  const log = [];
  const server = net.createServer((down) => {
    const up = net.connect(port, '127.0.0.1');
    const conn = { at: nowMs(), chunks: [] };
    if (keepLog && log.length < 1000) log.push(conn);
    sockets.add(down).add(up);
    const pipe = (from, to, dir) => {
      from.on('data', (d) => {
        const chunk = [dir, nowMs(), d.length, Number.NaN];
        if (keepLog) conn.chunks.push(chunk);
        setTimeout(() => {
          chunk[3] = nowMs();
          if (to.writable) to.write(d);
        }, oneWayMs);
      });
      from.on('end', () => setTimeout(() => to.end(), oneWayMs));
      from.on('error', () => to.destroy());
      from.on('close', () => sockets.delete(from));
    };
    pipe(down, up, 'req');
    pipe(up, down, 'res');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const close = () => {
    for (const s of sockets) s.destroy();
    return new Promise((r) => server.close(() => r()));
  };
  return { port: server.address().port, log, close };
}

if (!isMainThread && workerData?.delayProxy) {
  const p = await listen(workerData.port, workerData.oneWayMs, workerData.log);
  parentPort.on('message', async (m) => {
    if (m === 'log') parentPort.postMessage({ log: p.log.splice(0) });
    if (m === 'close') {
      await p.close();
      parentPort.close();
    }
  });
  let tid = null;
  try {
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop()); // Linux: this thread's id, for taskset
  } catch {
    // no /proc: the thread keeps the affinity it inherited
  }
  parentPort.postMessage({ port: p.port, tid });
}

/**
 * A delaying proxy to 127.0.0.1:`port` in a worker thread: { url, port, readLog(), close() }.
 * `cpus` (a taskset list, e.g. '0,1'): the thread's CPUs where taskset exists; else it keeps this
 * thread's (the stage pins itself to core 1 and its server to core 0; the proxy gets both, so it
 * runs wherever the client or the server is not computing, as a network does).
 */
export async function startDelayProxy(port, oneWayMs, { log = false, cpus = null } = {}) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { delayProxy: true, port, oneWayMs, log } });
  const [ready] = await Promise.race([once(worker, 'message'), once(worker, 'error').then(([e]) => Promise.reject(e))]);
  if (cpus && ready.tid) {
    try {
      execFileSync('taskset', ['-pc', cpus, String(ready.tid)], { stdio: 'ignore' });
    } catch {
      // no taskset: the inherited affinity
    }
  }
  return {
    url: `http://127.0.0.1:${ready.port}`,
    port: ready.port,
    readLog: async () => {
      worker.postMessage('log');
      const [m] = await once(worker, 'message');
      return m.log;
    },
    close: async () => {
      worker.postMessage('close');
      const t = setTimeout(() => worker.terminate(), 2000); // bounded: never left running
      await once(worker, 'exit');
      clearTimeout(t);
    },
  };
}

/** The same proxy in this thread (./cold-split.mjs PROXY=inline: the stage's layout before the tenth pass). */
export async function startInlineDelayProxy(port, oneWayMs, { log = false } = {}) {
  const p = await listen(port, oneWayMs, log);
  return { url: `http://127.0.0.1:${p.port}`, port: p.port, readLog: async () => p.log.splice(0), close: p.close };
}
