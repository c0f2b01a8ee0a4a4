/**
 * Unit tests of the demo's server-side pieces that need no browser: note validation and the
 * bounded store, the streaming assistant, the plain echo twin and the bench-only metrics switch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NotesStore, MAX_NOTES, parseNoteInput, NoteInputError, isNoteId } from '../lib/notes';
import { answerTokens, intParam, MAX_TOKENS } from '../lib/assistant';
import { count, snapshot } from '../lib/metrics';

describe('notes store', () => {
  it('creates, reads, updates, searches and deletes', () => {
    const s = new NotesStore();
    const a = s.create({ title: 'Alpha', body: 'first body' });
    const b = s.create({ title: 'Beta', body: 'mentions ALPHA too' });
    expect(isNoteId(a.id)).toBe(true);
    expect(s.get(a.id)?.title).toBe('Alpha');
    expect(s.list('alpha').map((n) => n.id)).toEqual([b.id, a.id]);
    expect(s.list('beta').map((n) => n.id)).toEqual([b.id]);
    s.update(a.id, { body: 'changed' });
    expect(s.list('').map((n) => n.id)).toEqual([a.id, b.id]); // most recently updated first
    expect(s.delete(a.id)).toBe(true);
    expect(s.delete(a.id)).toBe(false);
    expect(s.get(a.id)).toBeUndefined();
    expect(s.update('nope', { title: 'x' })).toBeUndefined();
  });

  it('stays bounded: the least recently updated note is evicted', () => {
    const s = new NotesStore();
    const first = s.create({ title: 'first', body: '' });
    for (let i = 0; i < MAX_NOTES + 10; i++) s.create({ title: `n${i}`, body: '' });
    expect(s.size).toBe(MAX_NOTES);
    expect(s.get(first.id)).toBeUndefined();
  });

  it('rejects malformed input with a typed error', () => {
    for (const bad of [
      null,
      'x',
      42,
      [],
      {},
      { title: 1, body: '' },
      { title: '  ', body: '' },
      { title: 'x'.repeat(201), body: '' },
      { title: 'ok', body: 'x'.repeat(20_001) },
    ]) {
      expect(() => parseNoteInput(bad), JSON.stringify(bad)?.slice(0, 40)).toThrow(NoteInputError);
    }
    expect(parseNoteInput({ title: 'ok', body: '' })).toEqual({ title: 'ok', body: '' });
    expect(parseNoteInput({ body: 'only body' }, true)).toEqual({ body: 'only body' });
    expect(() => parseNoteInput({ title: '' }, true)).toThrow(NoteInputError);
    expect(isNoteId('../../etc')).toBe(false);
  });
});

describe('assistant tokens', () => {
  const s = new NotesStore();
  s.create({ title: 'Groceries', body: 'lemons and basil' });
  s.create({ title: 'Work', body: 'ship the release' });

  it('answers from the matching notes, word by word', () => {
    const tokens = answerTokens('what about groceries?', s.list(''));
    const text = tokens.join('');
    expect(text).toContain('Groceries');
    expect(text).toContain('lemons');
    expect(text).not.toContain('release');
    expect(tokens.length).toBeGreaterThan(5);
  });

  it('is bounded and clamps parameters', () => {
    expect(answerTokens('x'.repeat(10_000), []).length).toBeLessThanOrEqual(MAX_TOKENS);
    expect(intParam(null, 1, 10, 5)).toBe(5);
    expect(intParam('abc', 1, 10, 5)).toBe(5);
    expect(intParam('-3', 1, 10, 5)).toBe(5);
    expect(intParam('0', 1, 10, 5)).toBe(1);
    expect(intParam('99999', 1, 10, 5)).toBe(10);
  });
});

describe('counters', () => {
  it('are bounded in the number of names', () => {
    for (let i = 0; i < 500; i++) count(`hostile.${i}`);
    expect(Object.keys(snapshot()).length).toBeLessThanOrEqual(64);
  });
});

describe('plain echo twin and bench metrics route', () => {
  const saved = process.env.NEN_BENCH_METRICS;
  afterEach(() => {
    if (saved === undefined) delete process.env.NEN_BENCH_METRICS;
    else process.env.NEN_BENCH_METRICS = saved;
  });

  it('echoes JSON and bytes with their content type, rejects malformed JSON', async () => {
    const { POST } = await import('../app/api/plain/echo/route');
    const json = await POST(
      new Request('http://127.0.0.1/api/plain/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":[1,2,"x"]}' }),
    );
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toEqual({ a: [1, 2, 'x'] });
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const bin = await POST(
      new Request('http://127.0.0.1/api/plain/echo', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: bytes }),
    );
    expect(new Uint8Array(await bin.arrayBuffer())).toEqual(bytes);
    const bad = await POST(new Request('http://127.0.0.1/api/plain/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' }));
    expect(bad.status).toBe(400);
  });

  it('metrics answer 404 unless NEN_BENCH_METRICS=1', async () => {
    const { GET } = await import('../app/api/bench/metrics/route');
    const metrics = () => GET(new Request('http://127.0.0.1/api/bench/metrics'));
    delete process.env.NEN_BENCH_METRICS;
    expect((await metrics()).status).toBe(404);
    process.env.NEN_BENCH_METRICS = '1';
    const res = await metrics();
    expect(res.status).toBe(200);
    const m = (await res.json()) as Record<string, unknown>;
    for (const k of ['rss', 'heapUsed', 'external', 'sessions', 'counters', 'storeKind']) expect(m).toHaveProperty(k);
    expect(m.storeKind).toBe('memory');
  });
});
