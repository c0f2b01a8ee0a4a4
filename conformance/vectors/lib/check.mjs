/**
 * Checks a vectors directory against @nen/core: every value is recomputed from the inputs (seeds,
 * headers, plaintexts) with the real protocol code, and every broken stream / rejected response
 * must fail with its code. Used by `generate.mjs --check` (the suite) and the JS reference driver
 * (`vectors` op). Returns one result per vector: { file, name, ok, detail? }.
 *
 * Pitfalls: encapsulations are random, so handshakes are checked by decapsulation (SetupBaseR +
 * Export), never by re-encapsulating; compressed plaintexts are checked by inflating.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEMS, concat, hex, unhex, utf8 } from './util.mjs';

const eq = (a, b, what) => {
  const x = typeof a === 'string' ? a : hex(a);
  const y = typeof b === 'string' ? b : hex(b);
  if (x !== y) throw new Error(`${what} differs`);
};

function checkHandshake(core, backend, v) {
  const kemId = KEMS[v.kem].id;
  eq(backend.deriveKeyPair(kemId, unhex(v.clientEphemeralIkm)).privateKey, v.clientEphemeralSeed, 'clientEphemeralSeed (DeriveKeyPair)');
  const eph = backend.createRecipientKey(kemId, unhex(v.clientEphemeralSeed));
  const srv = backend.createRecipientKey(kemId, unhex(v.serverStaticSeed));
  try {
    eq(eph.publicKey, v.clientEphemeralPublicKey, 'clientEphemeralPublicKey');
    eq(srv.publicKey, v.serverStaticPublicKey, 'serverStaticPublicKey');
    if (v.pinned) eq(core.formatServerKeyPin(v.kid, srv.publicKey), v.pin, 'pin');
    const ch = core.decodeClientHello(unhex(v.clientHello));
    eq(ch.pkEph, v.clientEphemeralPublicKey, 'ClientHello pk_eph');
    if (ch.lifetime !== v.requestedLifetime || ch.kem !== kemId || Boolean(ch.flags & 1) !== v.pinned) throw new Error('ClientHello fields differ');
    const shBytes = unhex(v.serverHello);
    const sh = core.decodeServerHello(shBytes, kemId);
    eq(sh.sessionId, v.sessionId, 'session id');
    if (sh.lifetime !== v.lifetime || sh.idleTimeout !== v.idleTimeout || sh.serverTime !== v.serverTime) throw new Error('ServerHello fields differ');
    if (core.toBase64Url(sh.sessionId) !== v.sessionIdB64u) throw new Error('sessionIdB64u differs');
    eq(sh.encEph, v.encEph, 'enc_e');
    const th = core.transcriptHash(backend, unhex(v.clientHello), shBytes.subarray(0, shBytes.length - 32));
    eq(th, v.th, 'TH');
    const exportedE = eph.setupBaseRExport(sh.encEph, core.LABEL.hpkeInfoEphemeral, core.LABEL.exporterContext, 32);
    eq(exportedE, v.exportedE, 'exported_e');
    let exportedS;
    if (v.pinned) {
      eq(ch.encStatic, v.encStatic, 'enc_static');
      if (ch.kid !== v.kid) throw new Error('kid differs');
      exportedS = srv.setupBaseRExport(ch.encStatic, core.LABEL.hpkeInfoStatic, core.LABEL.exporterContext, 32);
      eq(exportedS, v.exportedS, 'exported_s');
    }
    const { secret, confirm } = core.deriveHandshakeSecrets(backend, th, exportedE.slice(), exportedS?.slice());
    eq(secret, v.s0, 'S_0');
    eq(backend.hkdfExpand(secret, core.LABEL.confirm, 32), v.confirmKey, 'confirm key');
    eq(confirm, v.confirm, 'confirm');
    eq(shBytes.subarray(shBytes.length - 32), v.confirm, 'ServerHello confirm');
    let s = secret;
    for (const e of v.epochs) {
      const m = core.deriveEpochKeyMaterial(backend, s);
      eq(s, e.secret, `epoch ${e.epoch} secret`);
      for (const k of ['c2sKey', 'c2sIv', 's2cKey', 's2cIv']) eq(m[k], e[k], `epoch ${e.epoch} ${k}`);
      s = core.nextEpochSecret(backend, s);
    }
    if (!v.pinned) {
      // Unpinned ClientHellos are deterministic: the real client completes the recorded handshake.
      const st = core.clientHandshakeStart(backend, { kem: kemId, lifetime: v.requestedLifetime, ephemeralIkm: unhex(v.clientEphemeralIkm) });
      eq(st.hello, v.clientHello, 'ClientHello (client re-run)');
      eq(st.finish(shBytes).secret, v.s0, 'S_0 (client re-run)');
    }
  } finally {
    eph.dispose();
    srv.dispose();
  }
}

function keys(backend, sessions, name, epoch) {
  const e = sessions.get(name)?.epochs.find((x) => x.epoch === epoch);
  if (!e) throw new Error(`no keys for ${name} epoch ${epoch}`);
  return {
    c2s: backend.createAead(unhex(e.c2sKey)),
    c2sIv: unhex(e.c2sIv),
    s2c: backend.createAead(unhex(e.s2cKey)),
    s2cIv: unhex(e.s2cIv),
    sid: unhex(sessions.get(name).sessionId),
  };
}

async function checkRequest(core, backend, sessions, r) {
  const k = keys(backend, sessions, r.session, r.epoch);
  try {
    await checkRequestWith(core, k, r);
  } finally {
    k.c2s.dispose();
    k.s2c.dispose();
  }
}

async function checkRequestWith(core, k, r) {
  const meta = { sessionId: k.sid, epoch: r.epoch, seq: BigInt(r.seq), timestamp: r.ts, flags: r.flags };
  eq(core.formatRequestHeader(meta), r.headers.nen, 'nen header');
  eq(core.canonicalTarget(r.target), r.aadTarget, 'canonical target');
  const aad = core.requestAad(meta, r.method, r.target, r.contentType, r.retry ?? '');
  eq(aad, r.aad, 'AAD');
  eq(core.computeNonce(k.c2sIv, meta.seq, 0), r.nonce, 'nonce');
  const plain = core.openMessage(k.c2s, k.c2sIv, meta.seq, aad, unhex(r.sealed));
  eq(plain, r.plaintext, 'opened plaintext');
  if (r.plaintextReproducible) eq(core.sealMessage(k.c2s, k.c2sIv, meta.seq, aad, plain), r.sealed, 'sealed');
  let body = plain;
  if (r.flags & 2) {
    const q = core.unpackConfidentialQuery(plain);
    eq(q.query, utf8(r.url.slice(r.url.indexOf('?') + 1)), 'confidential query');
    body = q.body;
  }
  if (r.flags & 1) body = core.inflateRequestBody(body, 1 << 22);
  eq(body, r.body, 'body');
  if (r.headers['nen-body'] !== undefined) eq(utf8(core.encodeHeaderRecord(unhex(r.sealed))), utf8(r.headers['nen-body']), 'nen-body');
}

async function checkResponse(core, backend, sessions, r) {
  const k = keys(backend, sessions, r.session, r.epoch);
  const seq = BigInt(r.seq);
  try {
    const aad = core.responseAad(k.sid, r.epoch, seq, r.status, r.flags, r.contentType);
    eq(aad, r.aad, 'AAD');
    eq(core.computeNonce(k.s2cIv, seq, 0), r.nonce, 'nonce');
    eq(core.formatResponseHeader(r.flags), r.headers.nen, 'nen header');
    const plain = core.openMessage(k.s2c, k.s2cIv, seq, aad, unhex(r.sealed));
    eq(plain, r.plaintext, 'opened plaintext');
    if (r.plaintextReproducible) eq(core.sealMessage(k.s2c, k.s2cIv, seq, aad, plain), r.sealed, 'sealed');
    const body = r.flags & 1 ? await core.inflateResponseBody(plain, 1 << 22) : plain;
    eq(body, r.body, 'body');
    if (r.headers['nen-body'] !== undefined) eq(core.decodeHeaderRecord(r.headers['nen-body']), r.sealed, 'nen-body');
  } finally {
    k.c2s.dispose();
    k.s2c.dispose();
  }
}

function checkReject(core, backend, sessions, requests, r) {
  const req = requests.find((q) => q.name === r.request);
  const k = keys(backend, sessions, req.session, req.epoch);
  try {
    if (r.flags & 1 && !(req.flags & 8)) return; // compressed without ACCEPT_COMPRESSED: refused before opening
    const aad = core.responseAad(k.sid, req.epoch, BigInt(req.seq), r.status, r.flags, r.contentType);
    let opened = false;
    try {
      core.openMessage(k.s2c, k.s2cIv, BigInt(req.seq), aad, unhex(r.sealed));
      opened = true;
    } catch {}
    if (opened) throw new Error('opened, must be refused');
  } finally {
    k.c2s.dispose();
    k.s2c.dispose();
  }
}

const streamCode = (kind) => (kind === 'truncated' ? 'NEN_STREAM_TRUNCATED' : 'NEN_STREAM_INVALID');

/** Feeds `body` one byte at a time through the real RecordOpener: { plaintext, error code | null }. */
function openStream(core, backend, sessions, s, body) {
  const k = keys(backend, sessions, s.session, s.epoch);
  const aead = s.direction === 'response' ? k.s2c : k.c2s;
  const iv = s.direction === 'response' ? k.s2cIv : k.c2sIv;
  const opener = new core.RecordOpener(aead, iv, BigInt(s.seq), unhex(s.baseAad), (kind, detail) =>
    Object.assign(new Error(detail), { code: streamCode(kind) }),
  );
  const out = [];
  try {
    for (let i = 0; i < body.length; i++) out.push(...opener.push(body.subarray(i, i + 1)));
    opener.end();
    return { plaintext: concat(...out), code: null };
  } catch (e) {
    return { plaintext: concat(...out), code: e.code ?? `unexpected ${e.message}` };
  } finally {
    k.c2s.dispose();
    k.s2c.dispose();
  }
}

function checkStream(core, backend, sessions, s) {
  for (const r of s.records) {
    eq(core.recordAad(unhex(s.baseAad), r.index, r.final), r.aad, `record ${r.index} AAD`);
  }
  const got = openStream(core, backend, sessions, s, unhex(s.body));
  if (got.code) throw new Error(`refused: ${got.code}`);
  eq(got.plaintext, s.plaintext, 'plaintext');
}

export async function checkVectors(core, backend, dir) {
  const read = (f) => JSON.parse(readFileSync(join(dir, f), 'utf8'));
  const results = [];
  const run = async (file, name, fn) => {
    try {
      await fn();
      results.push({ file, name, ok: true });
    } catch (e) {
      results.push({ file, name, ok: false, detail: e instanceof Error ? e.message : String(e) });
    }
  };
  const hs = read('handshake.vectors.json');
  const sessions = new Map(hs.vectors.map((v) => [v.name, v]));
  for (const v of hs.vectors) await run('handshake.vectors.json', v.name, () => checkHandshake(core, backend, v));
  const msg = read('messages.vectors.json');
  for (const r of msg.requests) await run('messages.vectors.json', `request ${r.name}`, () => checkRequest(core, backend, sessions, r));
  for (const r of msg.responses) await run('messages.vectors.json', `response ${r.name}`, () => checkResponse(core, backend, sessions, r));
  for (const r of msg.rejects) await run('messages.vectors.json', `reject ${r.name}`, () => checkReject(core, backend, sessions, msg.requests, r));
  const st = read('streams.vectors.json');
  for (const s of st.streams) await run('streams.vectors.json', s.name, () => checkStream(core, backend, sessions, s));
  for (const b of st.broken) {
    await run('streams.vectors.json', `broken ${b.name}`, () => {
      const got = openStream(
        core,
        backend,
        sessions,
        st.streams.find((s) => s.name === b.stream),
        unhex(b.body),
      );
      if (got.code !== b.expect) throw new Error(`got ${got.code ?? 'success'}, want ${b.expect}`);
      eq(got.plaintext, b.delivered, 'delivered plaintext');
    });
  }
  const er = read('errors.vectors.json');
  for (const w of er.wire) {
    await run('errors.vectors.json', `wire ${w.code}`, () => {
      if (core.WIRE_ERRORS[w.code]?.status !== w.status) throw new Error('status differs from the catalog');
      if (JSON.parse(w.body).error.code !== w.code || w.headers['nen-error'] !== w.code) throw new Error('code differs');
    });
  }
  for (const c of er.classification) {
    await run('errors.vectors.json', `classify ${c.name}`, () => {
      const code = c.headers['nen-error'];
      const got = code && core.isWireErrorCode(code) && core.WIRE_ERRORS[code].status === c.status ? code : 'NEN_RESPONSE_UNAUTHENTICATED';
      if (got !== c.expect) throw new Error(`got ${got}, want ${c.expect}`);
    });
  }
  const rt = read('retry.vectors.json');
  for (const r of rt.rules) {
    await run('retry.vectors.json', `${r.answer.code} ${r.request}`, () => {
      const spec = core.WIRE_ERRORS[r.answer.code];
      const retryable = spec.client !== 'fail';
      const want = r.request === 'ordinary' && retryable ? 'retry' : 'throw';
      if (r.action !== want || r.backoff !== (want === 'retry' && spec.client === 'rehandshake-once')) throw new Error('rule differs from the catalog');
    });
  }
  const ct = read('canonical-target.vectors.json');
  for (const t of [...ct.targets, ...ct.urls]) {
    await run('canonical-target.vectors.json', t.name, () => eq(utf8(core.canonicalTarget(t.target)), utf8(t.canonical), 'canonical target'));
  }
  return results;
}
