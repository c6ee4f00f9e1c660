import type { ReadContext, Slot } from './read-context.js';
import type { JsonSchema, SchemaScope } from './schema-scope.js';

/** Builds the JSON Schema of what a reader accepts. */
export type SchemaOf = (scope: SchemaScope) => JsonSchema;

/**
 * Reads one value from a slot: returns it, or reports why it cannot and returns `undefined`.
 * Readers never throw for bad input, so a single pass finds every problem. Each carries the JSON
 * Schema of what it accepts, as far as JSON Schema can say it (references to other sections and
 * checks across keys are the loader's alone); the published graph schema is built from them.
 */
export interface Reader<T> {
  (ctx: ReadContext, slot: Slot): T | undefined;
  readonly schema: SchemaOf;
}

/** One entry of a mapping: its key (always a string here) and the slot of its value. */
export interface MapEntry {
  readonly key: string;
  readonly slot: Slot;
}

/** Reads one entry of a mapping with free keys (a model, an agent): like a {@link Reader}, but it sees the key too. */
export interface EntryReader<T> {
  (ctx: ReadContext, entry: MapEntry): T | undefined;
  /** The JSON Schema of an entry's value. */
  readonly schema: SchemaOf;
  /** The JSON Schema of the keys, when they are restricted (agent names). */
  readonly keys?: SchemaOf;
}

function schemaOf(schema: JsonSchema | SchemaOf): SchemaOf {
  return typeof schema === 'function' ? schema : () => schema;
}

/** A reader made of its JSON Schema (a fixed one, or one built in a scope) and its read function. */
export function reader<T>(schema: JsonSchema | SchemaOf, read: (ctx: ReadContext, slot: Slot) => T | undefined): Reader<T> {
  // A new function each time: `read` may itself be a reader, whose own schema must stay.
  return Object.assign((ctx: ReadContext, slot: Slot) => read(ctx, slot), { schema: schemaOf(schema) });
}

/** An entry reader made of the JSON Schema of its values and its read function; `keys` restricts the keys' schema. */
export function entryReader<T>(
  schema: JsonSchema | SchemaOf,
  read: (ctx: ReadContext, entry: MapEntry) => T | undefined,
  options: { keys?: JsonSchema | SchemaOf } = {},
): EntryReader<T> {
  const fn = (ctx: ReadContext, entry: MapEntry): T | undefined => read(ctx, entry);
  const { keys } = options;
  return Object.assign(fn, keys === undefined ? { schema: schemaOf(schema) } : { schema: schemaOf(schema), keys: schemaOf(keys) });
}

/** The entry reader that reads each value with `read`, whatever its key. */
export function eachValue<T>(read: Reader<T>): EntryReader<T> {
  return entryReader(read.schema, (ctx, entry) => read(ctx, entry.slot));
}

/** `schema` as the named definition `name` of the published schema (`$ref: '#/definitions/<name>'`). */
export function definition(name: string, schema: SchemaOf): SchemaOf {
  return (scope) => scope.define(name, schema, () => schema(scope));
}
