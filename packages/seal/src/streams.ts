/**
 * Web Streams over the age Sealer / Opener: constant memory for any input size (one 64 KiB chunk
 * in flight plus the header), back-pressure through TransformStream.
 *
 * Pitfall: openStream releases each STREAM chunk only after its tag verifies. Truncation, reordering,
 * duplication or trailing data make the output stream error (NEN_SEAL_PAYLOAD) — after the
 * verified chunks before the damage have been delivered. A consumer that must not act on a
 * partial result must treat the plaintext as complete only when the stream closes without error.
 */
import type { Backend } from '@nen/core';
import { Opener, Sealer, getBackend, toIdentities, toRecipients, type IdentityInput, type OpenOptions, type RecipientInput, type SealOptions } from './age.js';

interface PushMachine {
  push(data: Uint8Array, out: Uint8Array[]): void;
  finish(out: Uint8Array[]): void;
  dispose(): void;
}

function pushTransform(make: (b: Backend) => PushMachine, backend?: Backend): TransformStream<Uint8Array, Uint8Array> {
  let m: PushMachine | null = null;
  const run = (c: TransformStreamDefaultController<Uint8Array>, f: (m: PushMachine, out: Uint8Array[]) => void) => {
    const out: Uint8Array[] = [];
    try {
      f(m as PushMachine, out);
    } catch (e) {
      for (const o of out) c.enqueue(o);
      m?.dispose();
      throw e;
    }
    for (const o of out) c.enqueue(o);
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    async start() {
      m = make(await getBackend(backend));
    },
    transform(chunk, c) {
      if (!(chunk instanceof Uint8Array)) throw new TypeError('nen: stream chunks must be Uint8Array');
      run(c, (mm, out) => mm.push(chunk, out));
    },
    flush(c) {
      run(c, (mm, out) => mm.finish(out));
    },
  });
}

/** A TransformStream that seals plaintext bytes into an age file for `recipients`. */
export function createSealStream(recipients: RecipientInput | readonly RecipientInput[], opts: SealOptions = {}): TransformStream<Uint8Array, Uint8Array> {
  const rs = toRecipients(recipients, opts.allowMixedRecipients ?? false);
  return pushTransform((b) => new Sealer(b, rs, opts.armor ?? false), opts.backend);
}

/** A TransformStream that opens an age file (binary or armored) into plaintext bytes. */
export function createOpenStream(identities: IdentityInput | readonly IdentityInput[], opts: OpenOptions = {}): TransformStream<Uint8Array, Uint8Array> {
  const ids = toIdentities(identities);
  return pushTransform((b) => new Opener(b, ids, opts), opts.backend);
}

export function sealStream(
  input: ReadableStream<Uint8Array>,
  recipients: RecipientInput | readonly RecipientInput[],
  opts: SealOptions = {},
): ReadableStream<Uint8Array> {
  return input.pipeThrough(createSealStream(recipients, opts));
}

export function openStream(
  input: ReadableStream<Uint8Array>,
  identities: IdentityInput | readonly IdentityInput[],
  opts: OpenOptions = {},
): ReadableStream<Uint8Array> {
  return input.pipeThrough(createOpenStream(identities, opts));
}
