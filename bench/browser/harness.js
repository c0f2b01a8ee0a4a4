/**
 * The page server for browser measurements, on 127.0.0.1 only: serves a bundle directory (gzip
 * Content-Encoding, as a CDN would), HTML pages given as strings, and forwards every other path
 * (the API: /api/...) to the target so the page's requests are same-origin, plain and encrypted
 * alike (both pay the same extra hop).
 *
 * Pitfalls:
 *  - The forwarded request keeps its Host header: the target sees the origin the page used.
 *  - Files are read once and gzipped at start (no per-request disk or CPU work in the timing).
 *  - `close()` destroys open sockets so the bench does not wait for keep-alive timeouts.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html; charset=utf-8' };

function loadStatic(dir, pages) {
  const files = new Map();
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(`/${path.relative(dir, p).split(path.sep).join('/')}`, fs.readFileSync(p));
    }
  };
  if (dir) walk(dir);
  for (const [url, html] of Object.entries(pages)) files.set(url, Buffer.from(html));
  const out = new Map();
  for (const [url, buf] of files) out.set(url, { gz: gzipSync(buf, { level: 9 }), type: TYPES[path.extname(url) || '.html'] ?? 'application/octet-stream' });
  return out;
}

/** Starts the server; resolves to { origin, close }. */
export async function startHarness({ dir, pages = {}, target }) {
  const files = loadStatic(dir, pages);
  const upstream = new URL(target);
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const f = files.get(url.pathname);
    if (f) {
      res.writeHead(200, { 'content-type': f.type, 'content-encoding': 'gzip', 'content-length': f.gz.length, 'cache-control': 'no-store' });
      res.end(f.gz);
      return;
    }
    const fwd = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.on('error', () => res.destroy()); // the target dropped the connection mid-response
      up.pipe(res);
    });
    fwd.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('harness: target unreachable');
    });
    req.on('error', () => fwd.destroy());
    res.on('error', () => fwd.destroy());
    req.pipe(fwd);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
