/** Signed seals: HashML-DSA-65 over the whole file, verified against a pinned key before opening. */
import { describe, expect, it } from 'vitest';
import { NenSealError, generateSigningKey, open, openSigned, sealSigned } from './index.js';
import { pqKeyPair } from '../test/helpers.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof NenSealError ? e.code : String(e)),
  );

describe('signed seals', () => {
  it('opens when the pinned sender signed it; the file is still a plain age file', async () => {
    const k = await pqKeyPair();
    const sender = generateSigningKey();
    const s = await sealSigned('signed hello', k.recipient, sender.secretKey);
    expect(new TextDecoder().decode(await openSigned(s, k.identity, sender.publicKey))).toBe('signed hello');
    expect(new TextDecoder().decode(await open(s.file, k.identity))).toBe('signed hello');
  });

  it('refuses another signer, a re-signed file, a swapped file and a flipped byte, before decrypting', async () => {
    const k = await pqKeyPair();
    const sender = generateSigningKey();
    const mallory = generateSigningKey();
    const s = await sealSigned('a', k.recipient, sender.secretKey);
    const other = await sealSigned('b', k.recipient, sender.secretKey);
    const forged = await sealSigned('a', k.recipient, mallory.secretKey);
    expect(await code(openSigned(forged, k.identity, sender.publicKey))).toBe('NEN_SEAL_SIGNATURE');
    expect(await code(openSigned({ file: other.file, signature: s.signature }, k.identity, sender.publicKey))).toBe('NEN_SEAL_SIGNATURE');
    const flipped = s.file.slice();
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] as number) ^ 1;
    expect(await code(openSigned({ file: flipped, signature: s.signature }, k.identity, sender.publicKey))).toBe('NEN_SEAL_SIGNATURE');
    expect(await code(openSigned({ file: s.file, signature: s.signature.subarray(1) }, k.identity, sender.publicKey))).toBe('NEN_SEAL_SIGNATURE');
    // A recipient (who knows the file key) cannot keep the signature and change the payload.
    expect(await code(openSigned({ file: other.file, signature: s.signature }, k.identity, sender.publicKey))).toBe('NEN_SEAL_SIGNATURE');
  });
});
