/**
 * Builds handshake.vectors.json: one handshake per (KEM, pinned) pair, run through the real
 * @nen/core client (clientHandshakeStart with a fixed ephemeral ikm) and server (serverHandshake),
 * with every intermediate value a client needs to check its own key schedule (PROTOCOL.md §3, §4).
 *
 * Pitfalls: encapsulation randomness is fresh (the public Backend has no derandomized entry), so
 * the file, not this builder, is the reference: a checker decapsulates enc_static / enc_e with the
 * given private keys (SetupBaseR + Export) instead of re-encapsulating. Secrets here are test-only.
 */
import { KEMS, PROVENANCE, epochHex, fill, hex } from './util.mjs';

const SERVER_TIME = 1767225600000; // 2026-01-01T00:00:00Z
const CASES = [
  { name: 'xwing-pinned', kem: 'xwing', pinned: true, kid: 'k1', requestedLifetime: 0, sid: 0xa0, ikm: 0x40 },
  { name: 'xwing-unpinned', kem: 'xwing', pinned: false, requestedLifetime: 0, sid: 0xb0, ikm: 0x50 },
  { name: 'mlkem768-pinned', kem: 'mlkem768', pinned: true, kid: 'm1', requestedLifetime: 600, sid: 0xc0, ikm: 0x60 },
  { name: 'mlkem768-unpinned', kem: 'mlkem768', pinned: false, requestedLifetime: 0, sid: 0xd0, ikm: 0x70 },
];

/** The fixed server static seeds (test only): X-Wing 01..20, ML-KEM-768 d || z = 21..60. */
export function serverSeed(kem) {
  return kem === 'xwing' ? fill(32, (i) => i + 1) : fill(64, (i) => i + 0x21);
}

/** Runs one handshake case; returns the vector and the session secret (for the message builders). */
function buildOne(core, backend, c) {
  const kemId = KEMS[c.kem].id;
  const seed = serverSeed(c.kem);
  const serverKey = backend.createRecipientKey(kemId, seed);
  const publicKey = serverKey.publicKey;
  const pin = core.formatServerKeyPin(c.kid ?? 'k0', publicKey);
  const ikm = fill(32, (i) => c.ikm + i);
  const eph = backend.deriveKeyPair(kemId, ikm);
  const state = core.clientHandshakeStart(backend, {
    kem: kemId,
    pin: c.pinned ? core.parseServerKeyPin(pin) : undefined,
    lifetime: c.requestedLifetime,
    ephemeralIkm: ikm,
  });
  const sessionId = fill(16, (i) => c.sid + i);
  const server = core.serverHandshake(backend, state.hello, {
    keys: new Map(c.pinned ? [[c.kid, serverKey]] : []),
    sessionId,
    maxLifetime: 3600,
    idleTimeout: 900,
    now: SERVER_TIME,
  });
  const client = state.finish(server.response);
  if (Buffer.compare(client.secret, server.secret) !== 0) throw new Error(`${c.name}: client and server S_0 differ`);
  const ch = core.decodeClientHello(state.hello);
  const sh = core.decodeServerHello(server.response, kemId);
  const body = server.response.subarray(0, server.response.length - 32);
  const th = core.transcriptHash(backend, state.hello, body);
  const exportedE = backend.createRecipientKey(kemId, eph.privateKey).setupBaseRExport(sh.encEph, core.LABEL.hpkeInfoEphemeral, core.LABEL.exporterContext, 32);
  const exportedS = c.pinned ? serverKey.setupBaseRExport(ch.encStatic, core.LABEL.hpkeInfoStatic, core.LABEL.exporterContext, 32) : undefined;
  const { secret, confirm } = core.deriveHandshakeSecrets(backend, th, exportedE.slice(), exportedS?.slice());
  const confirmKey = backend.hkdfExpand(secret, core.LABEL.confirm, 32);
  const s1 = core.nextEpochSecret(backend, secret);
  const vector = {
    name: c.name,
    kem: c.kem,
    kemId,
    pinned: c.pinned,
    kid: c.pinned ? c.kid : null,
    serverStaticSeed: hex(seed),
    serverStaticPublicKey: hex(publicKey),
    pin: c.pinned ? pin : null,
    clientEphemeralIkm: hex(ikm),
    clientEphemeralSeed: hex(eph.privateKey),
    clientEphemeralPublicKey: hex(eph.publicKey),
    requestedLifetime: c.requestedLifetime,
    clientHello: hex(state.hello),
    serverHello: hex(server.response),
    sessionId: hex(sessionId),
    sessionIdB64u: core.toBase64Url(sessionId),
    lifetime: sh.lifetime,
    idleTimeout: sh.idleTimeout,
    serverTime: sh.serverTime,
    encStatic: c.pinned ? hex(ch.encStatic) : null,
    encEph: hex(sh.encEph),
    exportedS: exportedS ? hex(exportedS) : null,
    exportedE: hex(exportedE),
    th: hex(th),
    s0: hex(secret),
    confirmKey: hex(confirmKey),
    confirm: hex(confirm),
    epochs: [epochHex(core, backend, secret, 0), epochHex(core, backend, s1, 1)],
  };
  return { vector, secret };
}

export function buildHandshakes(core, backend) {
  const out = CASES.map((c) => buildOne(core, backend, c));
  return {
    file: {
      description:
        'Handshakes (PROTOCOL.md §3, §4): both KEMs, pinned (STATIC) and unpinned. Check: derive pk_eph from clientEphemeralSeed and compare with the ClientHello; parse ClientHello/ServerHello; exportedS = SetupBaseR(encStatic, serverStaticSeed, "nen/1 static").Export("nen/1 export", 32) (pinned only); exportedE = SetupBaseR(encEph, clientEphemeralSeed, "nen/1 ephemeral").Export("nen/1 export", 32); th = SHA-256("nen/1 transcript" || clientHello || serverHello[0 .. len-32)); s0 = HKDF-Extract(salt = th, ikm = exportedE || exportedS); confirmKey = HKDF-Expand(s0, "nen/1 confirm", 32); confirm = HMAC-SHA256(confirmKey, th) = the last 32 bytes of serverHello; epochs[n] = the directional keys and ivs of S_n (epochs[1].secret = HKDF-Expand(s0, "nen/1 rekey", 32)).',
      provenance: PROVENANCE,
      vectors: out.map((o) => o.vector),
    },
    sessions: new Map(out.map((o) => [o.vector.name, { secret: o.secret, vector: o.vector }])),
  };
}
