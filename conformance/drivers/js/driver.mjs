#!/usr/bin/env node
/**
 * The JavaScript reference driver (conformance/DRIVER.md): JSON Lines on stdin/stdout driving
 * `@nen/client` (`createNenClient`), and the `vectors` op checked with `@nen/core`.
 *
 * Pitfalls: one command at a time, one answer line each, nothing else on stdout (the client's
 * unpinned warning goes to stderr via console.warn); errors map to their NenError `code` (a
 * transport TypeError is `NETWORK`, anything else `DRIVER`); clients are released on `close`/exit.
 */
import { createInterface } from 'node:readline';
import { createNenClient } from '@nen/client';
import * as core from '@nen/core';
import { checkVectors } from '../../vectors/lib/check.mjs';

const clients = new Map();
const b64 = (u8) => Buffer.from(u8).toString('base64');

function errorAnswer(id, e, partial) {
  const code = typeof e?.code === 'string' && e.code.startsWith('NEN_') ? e.code : e instanceof TypeError ? 'NETWORK' : 'DRIVER';
  const out = { id, ok: false, code, message: String(e?.message ?? e) };
  if (typeof e?.status === 'number' && e.status > 0) out.status = e.status;
  if (typeof e?.cause?.code === 'string') out.cause = e.cause.code;
  if (partial !== undefined) out.partial = b64(partial);
  return out;
}

function makeClient(cmd) {
  const pins = Array.isArray(cmd.pins) && cmd.pins.length > 0 ? cmd.pins : null;
  const c = createNenClient({
    baseUrl: cmd.base,
    sessionPath: cmd.sessionPath,
    ...(pins ? { serverKey: pins } : { unpinned: true, kem: cmd.kem ?? 'xwing' }),
    timeoutMs: cmd.timeoutMs ?? 30000,
    ...(cmd.maxBodyBytes ? { maxResponseBytes: cmd.maxBodyBytes } : {}),
  });
  const kems = new Map(
    (pins ?? []).map((p) => {
      const pin = core.parseServerKeyPin(p);
      return [pin.kid, core.kemName(pin.kem)];
    }),
  );
  clients.set(cmd.name, { client: c, base: cmd.base, kems, kem: cmd.kem ?? 'xwing' });
}

async function doFetch(cmd) {
  const entry = clients.get(cmd.client);
  if (!entry) throw Object.assign(new Error(`no client ${cmd.client}`), { code: 'DRIVER' });
  const url = entry.base + cmd.path;
  const init = { method: cmd.method ?? 'GET', headers: cmd.headers ?? {} };
  if (cmd.body !== undefined && cmd.body !== null) init.body = Buffer.from(cmd.body, 'base64');
  if (cmd.stream) {
    const chunks = [];
    try {
      for await (const chunk of entry.client.stream(url, init)) chunks.push(Buffer.from(chunk));
    } catch (e) {
      return errorAnswer(cmd.id, e, Buffer.concat(chunks));
    }
    return { id: cmd.id, ok: true, status: 200, headers: {}, body: b64(Buffer.concat(chunks)), chunks: chunks.map(b64) };
  }
  const res = await entry.client.fetch(url, init);
  const headers = {};
  res.headers.forEach((v, k) => {
    headers[k.toLowerCase()] = v;
  });
  return { id: cmd.id, ok: true, status: res.status, headers, body: b64(new Uint8Array(await res.arrayBuffer())) };
}

async function handle(cmd) {
  switch (cmd.op) {
    case 'hello':
      return {
        id: cmd.id,
        ok: true,
        client: 'js',
        version: '0.1.0',
        features: ['xwing', 'mlkem768', 'stream', 'retry', 'pin', 'unpinned', 'query', 'compression'],
      };
    case 'vectors': {
      const backend = await core.loadBackend('auto');
      return { id: cmd.id, ok: true, results: await checkVectors(core, backend, cmd.dir) };
    }
    case 'client':
      makeClient(cmd);
      return { id: cmd.id, ok: true };
    case 'handshake': {
      const entry = clients.get(cmd.client);
      if (!entry) throw Object.assign(new Error(`no client ${cmd.client}`), { code: 'DRIVER' });
      const info = await entry.client.handshake();
      return {
        id: cmd.id,
        ok: true,
        keyId: info.keyId,
        kem: info.keyId ? entry.kems.get(info.keyId) : entry.kem,
        pinned: info.keyId !== null,
        sessionId: info.id,
      };
    }
    case 'fetch':
      return doFetch(cmd);
    case 'close':
      clients.delete(cmd.client);
      return { id: cmd.id, ok: true };
    default:
      return { id: cmd.id, ok: false, code: 'DRIVER', message: `unknown op ${cmd.op}` };
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
let queue = Promise.resolve();
rl.on('line', (line) => {
  if (!line.trim()) return;
  queue = queue.then(async () => {
    let cmd;
    try {
      cmd = JSON.parse(line);
      process.stdout.write(`${JSON.stringify(await handle(cmd))}\n`);
    } catch (e) {
      process.stdout.write(`${JSON.stringify(errorAnswer(cmd?.id ?? null, e))}\n`);
    }
  });
});
rl.on('close', () => {
  queue.then(() => process.exit(0));
});
