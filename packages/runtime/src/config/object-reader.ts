import { didYouMean } from './did-you-mean.js';
import type { ReadContext, Slot } from './read-context.js';
import { reader, type Reader } from './reader.js';
import type { JsonSchema, SchemaScope } from './schema-scope.js';
import { readEntries } from './yaml-readers.js';

/** What the published JSON Schema says about a field besides what its reader accepts (editors show it). */
export interface FieldAnnotations {
  /** One or two sentences for editors' hovers. */
  readonly description?: string;
  /** The value the runtime uses when the key is left out. */
  readonly default?: unknown;
}

/** One known key of a mapping with fixed keys. */
export interface FieldSpec<T> extends FieldAnnotations {
  readonly read: Reader<T>;
  readonly required?: boolean;
  /** Said after "missing required key" (`add "version: 1" at the top of the file`). */
  readonly missingHint?: string;
}

/** Options of {@link field}. */
export interface FieldOptions extends FieldAnnotations {
  required?: boolean;
  missingHint?: string;
}

/** A field read with `read`. */
export function field<T>(read: Reader<T>, options: FieldOptions = {}): FieldSpec<T> {
  return { read, ...options };
}

/** The values an object reader returns: every field is optional since a bad one is left out. */
export type FieldValues<S> = { [K in keyof S]?: S[K] extends FieldSpec<infer T> ? T : never };

/** Options of {@link objectReader}. */
export interface ObjectReaderOptions {
  /**
   * Keys the format will have later, with what to say about them now; reported as "not supported
   * yet" rather than as typos.
   */
  reserved?: Readonly<Record<string, string>>;
}

/** `schema` with a field's annotations (left out when absent, so the published file stays small). */
export function annotated(schema: JsonSchema, annotations: FieldAnnotations): JsonSchema {
  return {
    ...schema,
    ...(annotations.description === undefined ? {} : { description: annotations.description }),
    ...(annotations.default === undefined ? {} : { default: annotations.default }),
  };
}

/**
 * The JSON Schema of a mapping with exactly these keys: `properties` from each field's reader and
 * annotations, `required` from the required ones, no other key.
 */
export function objectSchema(
  fields: Readonly<Record<string, Pick<FieldSpec<unknown>, 'read' | 'required' | keyof FieldAnnotations>>>,
  scope: SchemaScope,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, spec] of Object.entries(fields)) {
    properties[key] = annotated(spec.read.schema(scope), spec);
    if (spec.required === true) required.push(key);
  }
  return { type: 'object', ...(required.length > 0 ? { required } : {}), properties, additionalProperties: false };
}

/** How a mapping is named in messages: `agents.assistant`, or "the top level" for a file's root. */
function nameOf(slot: Slot): string {
  return slot.path === '' ? 'the top level' : slot.path;
}

/**
 * A mapping with fixed keys. Reports, all in one pass: a value that is not a mapping, unknown keys
 * (with a "did you mean" hint, or the list of known keys), keys reserved for later versions,
 * missing required keys, and whatever each field's reader reports. Its JSON Schema is
 * {@link objectSchema} of the fields.
 */
export function objectReader<S extends Record<string, FieldSpec<unknown>>>(fields: S, options: ObjectReaderOptions = {}): Reader<FieldValues<S>> {
  const known = Object.keys(fields);
  const reserved = options.reserved ?? {};
  return reader(
    (scope) => objectSchema(fields, scope),
    (ctx: ReadContext, slot: Slot) => {
      const entries = readEntries(ctx, slot, nameOf(slot));
      if (entries === undefined) return undefined;
      const values: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const entry of entries) {
        seen.add(entry.key);
        const spec = Object.hasOwn(fields, entry.key) ? fields[entry.key] : undefined;
        if (spec === undefined) {
          const keySlot: Slot = entry.slot.key === undefined ? entry.slot : { path: entry.slot.path, node: entry.slot.key };
          const later = Object.hasOwn(reserved, entry.key) ? reserved[entry.key] : undefined;
          if (later !== undefined) {
            ctx.report(keySlot, `"${entry.key}" in ${nameOf(slot)} is not supported yet`, later);
          } else {
            const hint = didYouMean(entry.key, known) ?? `expected ${known.map((k) => `"${k}"`).join(', ')}`;
            ctx.report(keySlot, `unknown key "${entry.key}" in ${nameOf(slot)}`, hint);
          }
          continue;
        }
        const value = spec.read(ctx, entry.slot);
        if (value !== undefined) values[entry.key] = value;
      }
      // A missing key is reported at the key that owns the mapping (`assistant:`), not at its first child.
      const owner: Slot = slot.key === undefined ? slot : { path: slot.path, node: slot.key };
      for (const key of known) {
        const spec = fields[key];
        if (spec?.required === true && !seen.has(key)) ctx.report(owner, `missing required key "${key}" in ${nameOf(slot)}`, spec.missingHint);
      }
      return values as FieldValues<S>;
    },
  );
}
