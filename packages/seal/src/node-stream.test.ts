/**
 * webReadableFromNode: a Node Readable as a Web stream that a pipe may cancel at any moment.
 * The regression: Node 20's stream.Readable.toWeb enqueued a 'data' event that arrived after the
 * cancel and threw ERR_INVALID_STATE from the event emitter (an uncaught exception, reported by
 * vitest as an unhandled error). Here a transform that starts late fails on the second piece of a
 * file, so the cancel lands while the file stream is flowing with pieces queued.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { webReadableFromNode } from './node-stream.js';
import { drain } from '../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'nen-seal-nodestream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Fails on the second piece; starts late (as createOpenStream waits for the Wasm backend), so pieces queue up first. */
function failOnSecond(): TransformStream<Uint8Array, Uint8Array> {
  let n = 0;
  return new TransformStream({
    start: () => sleep(50),
    transform(chunk, c) {
      if (++n === 2) throw new Error('bad piece');
      c.enqueue(chunk);
    },
  });
}

describe('webReadableFromNode', () => {
  it('reads a file to the end in its pieces, as copies', async () => {
    const file = join(dir, 'a.bin');
    const data = Buffer.alloc(300_000, 7);
    writeFileSync(file, data);
    const r = await drain(webReadableFromNode(createReadStream(file, { highWaterMark: 4096 })));
    expect(r.error).toBeNull();
    expect(Buffer.compare(r.bytes, data)).toBe(0);
    expect(r.chunks.length).toBe(Math.ceil(300_000 / 4096));
  });

  it('a cancel from a failing pipe while the file flows: the error reaches the reader, nothing is thrown later', async () => {
    const file = join(dir, 'b.bin');
    writeFileSync(file, Buffer.alloc(1 << 20, 1));
    const errors: unknown[] = [];
    const onUncaught = (e: unknown) => void errors.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      for (let i = 0; i < 3; i++) {
        const src = createReadStream(file);
        const r = await drain(webReadableFromNode(src).pipeThrough(failOnSecond()));
        expect((r.error as Error).message).toBe('bad piece');
        await sleep(5);
        expect(src.destroyed).toBe(true);
      }
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(errors).toEqual([]);
  });

  it('a failing source errors the stream; string chunks are encoded', async () => {
    const bad = new Readable({
      read() {
        this.destroy(new Error('disk gone'));
      },
    });
    expect(((await drain(webReadableFromNode(bad))).error as Error).message).toBe('disk gone');
    const text = await drain(webReadableFromNode(Readable.from(['ab', 'c'], { objectMode: false })));
    expect(text.bytes.toString()).toBe('abc');
  });
});
