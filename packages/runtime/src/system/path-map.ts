/**
 * A map (by actor path, or any string) that keeps a lone entry inline and makes a `Map` only for
 * a second one. Most runs have a single actor, and a `Map` with its hash table costs about 200
 * bytes even for one entry: with many runs waiting (or hibernated), that is a good part of what
 * each keeps. Iterates in insertion order, as a `Map` does.
 */
export class PathMap<V> {
  /** The lone entry's key, while there is exactly one entry and no `#map`. */
  #key: string | undefined;
  #value: V | undefined;
  /** Every entry, once there have been two at once. */
  #map: Map<string, V> | undefined;

  /** How many entries there are. */
  get size(): number {
    return this.#map?.size ?? (this.#key === undefined ? 0 : 1);
  }

  /** The value of `key`, if any. */
  get(key: string): V | undefined {
    if (this.#map !== undefined) return this.#map.get(key);
    return key === this.#key ? this.#value : undefined;
  }

  /** Whether `key` has an entry. */
  has(key: string): boolean {
    return this.#map !== undefined ? this.#map.has(key) : key === this.#key;
  }

  /** Sets the value of `key` (a new key goes last). */
  set(key: string, value: V): this {
    if (this.#map !== undefined) this.#map.set(key, value);
    else if (this.#key === undefined || this.#key === key) {
      this.#key = key;
      this.#value = value;
    } else {
      this.#map = new Map([[this.#key, this.#value as V]]);
      this.#map.set(key, value);
      this.#key = undefined;
      this.#value = undefined;
    }
    return this;
  }

  /** Removes `key`'s entry; whether there was one. */
  delete(key: string): boolean {
    if (this.#map !== undefined) {
      const deleted = this.#map.delete(key);
      // Back to nothing kept at all once empty (a run whose actors all left).
      if (this.#map.size === 0) this.#map = undefined;
      return deleted;
    }
    if (key !== this.#key) return false;
    this.#key = undefined;
    this.#value = undefined;
    return true;
  }

  /** Removes every entry. */
  clear(): void {
    this.#map = undefined;
    this.#key = undefined;
    this.#value = undefined;
  }

  /** The values, in insertion order. */
  *values(): Generator<V, undefined, undefined> {
    for (const [, value] of this.entries()) yield value;
    return undefined;
  }

  /** The entries, in insertion order. */
  *entries(): Generator<[string, V], undefined, undefined> {
    if (this.#map !== undefined) yield* this.#map;
    else if (this.#key !== undefined) yield [this.#key, this.#value as V];
    return undefined;
  }

  [Symbol.iterator](): Generator<[string, V], undefined, undefined> {
    return this.entries();
  }
}
