/**
 * Builds streams.vectors.json: record streams (PROTOCOL.md §6) sealed with the real RecordSealer
 * under the xwing-pinned session: a response stream, a streamed upload, a stream with empty
 * non-final records and a non-empty final record, and broken streams with the code a receiver
 * reports (truncated, reordered, duplicated, extended, bad length, forged final).
 *
 * Pitfall: the `final` flag is only in the AAD (last byte): a receiver opens each record with
 * final = 0 and then final = 1 (either order), never reading it from the wire.
 */
import { PROVENANCE, concat, hex, utf8 } from './util.mjs';

const u32 = (n) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};

function sealStream(core, backend, keys, seq, baseAad, parts) {
  const aead = backend.createAead(keys.key);
  const sealer = new core.RecordSealer(aead, keys.iv, BigInt(seq), baseAad);
  const records = parts.map(([chunk, final], index) => {
    const framed = sealer.seal(chunk, final);
    return {
      index,
      final,
      plaintext: hex(chunk),
      nonce: hex(core.computeNonce(keys.iv, BigInt(seq), index)),
      aad: hex(core.recordAad(baseAad, index, final)),
      framed: hex(framed),
    };
  });
  aead.dispose();
  return records;
}

export function buildStreams(core, backend, sessions) {
  const s = sessions.get('xwing-pinned');
  const sid = Buffer.from(s.vector.sessionId, 'hex');
  const m = core.deriveEpochKeyMaterial(backend, s.secret);
  const s2c = { key: m.s2cKey, iv: m.s2cIv };
  const c2s = { key: m.c2sKey, iv: m.c2sIv };
  const respAad = (seq) => core.responseAad(sid, 0, BigInt(seq), 200, 4, 'text/event-stream');
  const empty = new Uint8Array(0);
  const streams = [];
  const add = (name, direction, seq, baseAad, meta, parts) => {
    const records = sealStream(core, backend, direction === 'response' ? s2c : c2s, seq, baseAad, parts);
    const plaintext = concat(...parts.map(([c]) => c));
    streams.push({
      name,
      direction,
      session: 'xwing-pinned',
      epoch: 0,
      seq,
      ...meta,
      baseAad: hex(baseAad),
      records,
      body: records.map((r) => r.framed).join(''),
      plaintext: hex(plaintext),
    });
  };
  add(
    'response-sse',
    'response',
    10,
    respAad(10),
    {
      status: 200,
      flags: 4,
      contentType: 'text/event-stream',
      headers: { nen: '1.4', 'content-type': 'application/nen-stream', 'nen-type': 'text/event-stream' },
    },
    [
      [utf8('data: a\n\n'), false],
      [utf8('data: b\n\n'), false],
      [empty, true],
    ],
  );
  const upMeta = { sessionId: sid, epoch: 0, seq: 11n, timestamp: 1767225611000, flags: 4 };
  const upAad = core.requestAad(upMeta, 'POST', '/api/upload', 'application/octet-stream', '');
  add(
    'upload',
    'request',
    11,
    upAad,
    {
      method: 'POST',
      target: '/api/upload',
      contentType: 'application/octet-stream',
      ts: upMeta.timestamp,
      flags: 4,
      headers: { nen: core.formatRequestHeader(upMeta), 'content-type': 'application/nen-stream', 'nen-type': 'application/octet-stream' },
    },
    [
      [utf8('hello '), false],
      [utf8('world'), false],
      [empty, true],
    ],
  );
  add(
    'empty-records-nonempty-final',
    'response',
    12,
    respAad(12),
    {
      status: 200,
      flags: 4,
      contentType: 'text/event-stream',
      headers: { nen: '1.4', 'content-type': 'application/nen-stream', 'nen-type': 'text/event-stream' },
    },
    [
      [empty, false],
      [utf8('x'), false],
      [empty, false],
      [utf8('last'), true],
    ],
  );
  const sse = streams[0];
  const r = sse.records.map((x) => x.framed);
  const sealedFinalAt0 = sealStream(core, backend, s2c, 10, respAad(10), [[utf8('data: a\n\n'), true]])[0].framed;
  const bad = (name, body, expect, plaintextBeforeError) => ({ name, stream: 'response-sse', body, expect, delivered: hex(plaintextBeforeError) });
  const a = utf8('data: a\n\n');
  const ab = utf8('data: a\n\ndata: b\n\n');
  const broken = [
    bad('truncated-no-final', r[0] + r[1], 'NEN_STREAM_TRUNCATED', ab),
    bad('truncated-mid-record', r[0] + r[1].slice(0, 20), 'NEN_STREAM_TRUNCATED', a),
    bad('empty-body', '', 'NEN_STREAM_TRUNCATED', new Uint8Array(0)),
    bad('reordered', r[1] + r[0] + r[2], 'NEN_STREAM_INVALID', new Uint8Array(0)),
    bad('duplicated', r[0] + r[0] + r[1] + r[2], 'NEN_STREAM_INVALID', a),
    bad('dropped-middle', r[0] + r[2], 'NEN_STREAM_INVALID', a),
    bad('data-after-final', r[0] + r[1] + r[2] + '00', 'NEN_STREAM_INVALID', ab),
    bad('record-after-final', sealedFinalAt0 + r[1], 'NEN_STREAM_INVALID', a),
    bad('length-below-16', `${r[0]}${hex(u32(15))}${'00'.repeat(15)}`, 'NEN_STREAM_INVALID', a),
    bad('length-above-max', `${r[0]}${hex(u32(65537 + 16))}`, 'NEN_STREAM_INVALID', a),
    bad('flipped-tag-byte', r[0].slice(0, -2) + (r[0].endsWith('00') ? '01' : '00') + r[1] + r[2], 'NEN_STREAM_INVALID', new Uint8Array(0)),
  ];
  return {
    description:
      'Record streams (PROTOCOL.md §6). Each record on the wire: u32(len) || sealed, 16 <= len <= 65552. Record i: nonce = iv XOR (u32(i) || u64(seq)), aad = baseAad || u32(i) || u8(final); response streams use s2cKey/s2cIv of the session epoch, uploads c2sKey/c2sIv; baseAad is the response AAD (status 200, flags 4) or the request AAD (flags include 0x04). final is not on the wire: open with final=0, then final=1 (either order). streams: valid streams (body = the concatenated framed records; plaintext = the concatenated chunks). broken: bodies of the stream named by `stream` that a receiver must refuse with `expect` (NEN_STREAM_TRUNCATED when the body ends before the final record, NEN_STREAM_INVALID for a bad length, a record that opens under neither final value, or anything after the final record); `delivered` is the plaintext a streaming receiver has released before the error (records are released only once they verify).',
    provenance: PROVENANCE,
    streams,
    broken,
  };
}
