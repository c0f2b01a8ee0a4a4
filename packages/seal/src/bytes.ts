/**
 * Byte helpers local to @nen/seal; concatenating a few arrays is @nen/core's `concatBytes`.
 * Pitfall: timingSafeEqual must not exit early on the first differing byte.
 */
const ENCODER = new TextEncoder();

export const utf8 = (s: string): Uint8Array => ENCODER.encode(s);

export function u16(v: number): Uint8Array {
  return new Uint8Array([(v >> 8) & 0xff, v & 0xff]);
}

/** @nen/core's concatBytes for a list of any length (no spread: a long stream's chunk list stays one argument). */
export function concatAll(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let acc = 0;
  for (let i = 0; i < a.length; i++) acc |= (a[i] as number) ^ (b[i] as number);
  return acc === 0;
}
