/**
 * Byte helpers local to @nen/seal; joining arrays is @nen/core's `concatBytes` (a few, named) or
 * `joinChunks` (a list of any length, one argument).
 * Pitfall: timingSafeEqual must not exit early on the first differing byte.
 */
const ENCODER = new TextEncoder();

export const utf8 = (s: string): Uint8Array => ENCODER.encode(s);

export function u16(v: number): Uint8Array {
  return new Uint8Array([(v >> 8) & 0xff, v & 0xff]);
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let acc = 0;
  for (let i = 0; i < a.length; i++) acc |= (a[i] as number) ^ (b[i] as number);
  return acc === 0;
}
