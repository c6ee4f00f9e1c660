import { TroupeError } from '@troupe/core';
import type { Bucket } from '../connection/bucket.js';
import { RunStoreErrorCode } from '@troupe/runtime';

const decoder = new TextDecoder();

/** The fields a stored JSON object must have, and their `typeof`. */
export type StoredShape = Record<string, 'string' | 'number' | 'object'>;

/**
 * What a value read from NATS is, for an error about it: a string, or a function that makes one
 * only when there is an error (a run reads thousands of values that are fine, and a message per
 * read was a string built and dropped each time).
 */
export type StoredWhat = string | (() => string);

/** The name `what` gives. */
export function described(what: StoredWhat): string {
  return typeof what === 'string' ? what : what();
}

/**
 * Parses JSON read from NATS (a KV value, a stream message) and checks the fields of `shape`;
 * anything else is a `corrupt_run_store` error naming `what`.
 */
export function parseStored<T>(data: Uint8Array, what: StoredWhat, shape: StoredShape): T {
  return checkShape<T>(parseJson(data, what), what, shape);
}

/** Parses JSON read from NATS; a `corrupt_run_store` error naming `what` when it is not JSON. */
export function parseJson(data: Uint8Array, what: StoredWhat): unknown {
  try {
    return JSON.parse(decoder.decode(data));
  } catch (error) {
    throw new TroupeError(RunStoreErrorCode.Corrupt, `${described(what)} is not valid JSON`, { cause: error });
  }
}

/** Whether `value` is an object with the fields of `shape` (see {@link checkShape}). */
export function hasShape(value: unknown, shape: StoredShape): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // `for…in` over the shape's own literal: no entries array per check.
  for (const field in shape) {
    const found: unknown = (value as Record<string, unknown>)[field];
    if (typeof found !== shape[field] || found === null) return false;
  }
  return true;
}

/** `value`, once checked to be an object with the fields of `shape`; a `corrupt_run_store` error naming `what` otherwise. */
export function checkShape<T>(value: unknown, what: StoredWhat, shape: StoredShape): T {
  if (hasShape(value, shape)) return value as T;
  if (typeof value !== 'object' || value === null) throw new TroupeError(RunStoreErrorCode.Corrupt, `${described(what)} is not a JSON object`);
  const [field, type] = Object.entries(shape).find(([field, type]) => {
    const found: unknown = (value as Record<string, unknown>)[field];
    return typeof found !== type || found === null;
  }) ?? ['', ''];
  throw new TroupeError(RunStoreErrorCode.Corrupt, `${described(what)} has no ${type} "${field}"`);
}

/** The value at `key`, parsed and checked; `undefined` when the key was never written or was deleted. */
export async function readEntry<T>(kv: Bucket, key: string, what: string, shape: StoredShape): Promise<T | undefined> {
  const entry = await kv.get(key);
  // A deleted key reads back as a `DEL` entry, not as null.
  if (entry?.operation !== 'PUT') return undefined;
  return parseStored<T>(entry.value, () => `${what} at key ${key}`, shape);
}

/** Every key of `kv` matching `filter` (NATS wildcards); deleted ones are skipped when read (see {@link readEntries}). */
export function listKeys(kv: Bucket, filter: string): Promise<string[]> {
  return kv.keys(filter);
}

/** The values of `keys`, parsed and checked, skipping keys deleted meanwhile. */
export async function readEntries<T>(kv: Bucket, keys: readonly string[], what: string, shape: StoredShape): Promise<T[]> {
  const values: Array<T | undefined> = await Promise.all(keys.map((key) => readEntry<T>(kv, key, what, shape)));
  return values.filter((value): value is T => value !== undefined);
}
