/**
 * Reads `INFO all` from the Redis nodes behind the targets (`--redis host:port,..`, set by
 * scripts/main.sh for its own loopback Redis / Cluster), so the bench can say how many Redis
 * commands a request and a handshake cost (total_commands_processed, which also counts the
 * commands a Lua script runs), how many of them were round trips of the store's script
 * (cmdstat_evalsha), and how many bytes a session takes in Redis.
 *
 * A minimal RESP client over one `node:net` socket per node: it sends `INFO` and reads one bulk
 * string. Each read is itself one command on the node, so `commandsSince` subtracts the reads
 * made in between.
 *
 * Pitfalls: counts are server-wide (everything any instance sent), so they are attributed to the
 * mode that ran in that window only because the bench runs modes one at a time; `used_memory`
 * includes allocator overhead and moves with expiry, so bytes per session is taken over a window
 * that creates many sessions. Every socket has a timeout and is unref'd.
 */
import net from 'node:net';

/** Parse INFO text into { key: number | string }. */
export function parseInfo(text) {
  const out = {};
  for (const line of String(text).split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    const i = line.indexOf(':');
    if (i < 0) continue;
    const k = line.slice(0, i);
    const v = line.slice(i + 1);
    out[k] = /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  }
  return out;
}

function infoOnce(socket, timeoutMs) {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => done(new Error('redis INFO: timeout')), timeoutMs);
    timer.unref();
    const onData = (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf[0] === 0x2d /* - */) return done(new Error(`redis INFO: ${buf.toString().trim()}`));
      const nl = buf.indexOf('\r\n');
      if (nl < 0) return;
      const len = Number(buf.subarray(1, nl).toString());
      if (buf.length >= nl + 2 + len + 2) done(null, buf.subarray(nl + 2, nl + 2 + len).toString());
    };
    const onError = (e) => done(e);
    function done(err, text) {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      if (err) reject(err);
      else resolve(parseInfo(text));
    }
    socket.on('data', onData);
    socket.on('error', onError);
    socket.write('*2\r\n$4\r\nINFO\r\n$3\r\nall\r\n');
  });
}

/**
 * @param {string[]} nodes host:port
 * @returns {Promise<null | { read(): Promise<{ commands: number, usedMemory: number, keys: number, reads: number }>, close(): void, nodes: string[] }>}
 */
export async function createRedisProbe(nodes, { timeoutMs = 3000 } = {}) {
  if (!nodes?.length) return null;
  const sockets = [];
  for (const n of nodes) {
    const [host, port] = n.split(':');
    const s = net.connect({ host, port: Number(port) });
    s.setNoDelay(true);
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`redis ${n}: connect timeout`)), timeoutMs);
      s.once('connect', () => {
        clearTimeout(t);
        resolve();
      });
      s.once('error', (e) => {
        clearTimeout(t);
        reject(e);
      });
    });
    s.unref();
    sockets.push(s);
  }
  let reads = 0;
  let chain = Promise.resolve();
  const readAll = async () => {
    let commands = 0;
    let usedMemory = 0;
    let keys = 0;
    let cpuUs = 0;
    const calls = {};
    const usec = {};
    for (const s of sockets) {
      const info = await infoOnce(s, timeoutMs);
      reads++;
      commands += Number(info.total_commands_processed ?? 0);
      usedMemory += Number(info.used_memory ?? 0);
      cpuUs += Math.round((Number(info.used_cpu_user ?? 0) + Number(info.used_cpu_sys ?? 0)) * 1e6);
      const db0 = String(info.db0 ?? '');
      const m = /keys=(\d+)/.exec(db0);
      keys += m ? Number(m[1]) : 0;
      for (const [k, v] of Object.entries(info)) {
        if (!k.startsWith('cmdstat_')) continue;
        const c = /calls=(\d+)/.exec(String(v));
        const u = /(?:^|,)usec=(\d+)/.exec(String(v));
        if (c) calls[k.slice(8)] = (calls[k.slice(8)] ?? 0) + Number(c[1]);
        if (u) usec[k.slice(8)] = (usec[k.slice(8)] ?? 0) + Number(u[1]);
      }
    }
    return { commands, usedMemory, keys, reads, calls, usec, cpuUs };
  };
  return {
    nodes,
    /** serialised: two reads never interleave on one socket */
    read() {
      const p = chain.then(readAll);
      chain = p.catch(() => {});
      return p;
    },
    close() {
      for (const s of sockets) s.destroy();
    },
  };
}

/** Execution µs of one command (cmdstat_<name> usec, scripts include their inner commands) between two reads. */
export function usecBetween(before, after, name) {
  if (!before || !after) return null;
  return (after.usec?.[name] ?? 0) - (before.usec?.[name] ?? 0);
}

/** Calls of one command (cmdstat_<name>) between two reads. */
export function callsBetween(before, after, name) {
  if (!before || !after) return null;
  return (after.calls?.[name] ?? 0) - (before.calls?.[name] ?? 0);
}

/**
 * Commands the application sent between two reads (the reads themselves removed: the INFO that
 * produced `after` is counted in `after`'s total, `before`'s own INFO too).
 */
export function commandsBetween(before, after) {
  if (!before || !after) return null;
  return after.commands - before.commands - (after.reads - before.reads);
}
