/**
 * A Web `Headers` (instanceof, usable wherever one is) that answers `get` and `has` from a source
 * until something needs the whole list, then copies the source into itself once and is a plain
 * Headers from then on. The request view (../request-view.ts) and the node:http adapter
 * (./adapters/node-headers.ts) extend it: each says how to read its source and how to fill.
 *
 * Pitfalls:
 *  - undici copies a Headers' internal list directly only when its iterator is
 *    `Headers.prototype.entries`: this class overrides the iterators, so `new Headers(h)` and a
 *    Request/Response built with it go through them and see the filled list.
 *  - `fill()` must drop the source before appending (through `appendFilled`, which does not
 *    fill again), so that it runs once.
 */

/** Headers' iterator methods, as the platform defines them. */
const ITERATORS = Headers.prototype as unknown as {
  entries(this: Headers): IterableIterator<[string, string]>;
  keys(this: Headers): IterableIterator<string>;
  values(this: Headers): IterableIterator<string>;
};

/** Headers read lazily from a source: subclasses override `get`/`has` while the source is there and implement `fill`. */
export abstract class LazyHeaders extends Headers {
  /** Copies the source into this object (with `appendFilled`) and drops it; a no-op once done. */
  protected abstract fill(): void;

  /** Appends to this object's own list, without filling. */
  protected appendFilled(name: string, value: string): void {
    super.append(name, value);
  }

  override append(name: string, value: string): void {
    this.fill();
    super.append(name, value);
  }

  override set(name: string, value: string): void {
    this.fill();
    super.set(name, value);
  }

  override delete(name: string): void {
    this.fill();
    super.delete(name);
  }

  override getSetCookie(): string[] {
    this.fill();
    return super.getSetCookie();
  }

  override forEach(cb: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.fill();
    super.forEach(cb, thisArg);
  }

  // entries/keys/values/iterator: not in this package's TypeScript lib (no DOM.Iterable), hence the casts.
  entries(): IterableIterator<[string, string]> {
    this.fill();
    return ITERATORS.entries.call(this);
  }

  keys(): IterableIterator<string> {
    this.fill();
    return ITERATORS.keys.call(this);
  }

  values(): IterableIterator<string> {
    this.fill();
    return ITERATORS.values.call(this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    this.fill();
    return ITERATORS.entries.call(this);
  }
}
