import { sharedSchemaValidator } from '@troupe/core';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { didYouMean } from './did-you-mean.js';
import { childPath, type ReadContext, type ReferenceKind, type Slot } from './read-context.js';
import { reader, type EntryReader, type MapEntry, type Reader } from './reader.js';
import type { JsonSchema, SchemaScope } from './schema-scope.js';

/** Describes a node for "got …" in messages: `string "ten"`, `number 5`, `a list`, `nothing`. */
export function describeNode(node: Node | null): string {
  if (node === null) return 'nothing';
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) {
    const value = node.value;
    if (value === null || value === undefined) return 'nothing';
    if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  }
  return 'an unsupported value';
}

/** Reports `<path> must be <expected>, got <actual>`. */
export function reportType(ctx: ReadContext, slot: Slot, expected: string, hint?: string): undefined {
  ctx.report(slot, `${slot.path} must be ${expected}, got ${describeNode(slot.node)}`, hint);
  return undefined;
}

function scalarValue(slot: Slot): unknown {
  return slot.node !== null && isScalar(slot.node) ? slot.node.value : undefined;
}

/**
 * A scalar's value for a reader that wants something other than a string: a string holding a
 * `${NAME}` comes back substituted, with `written` set to the text as written (so the reader
 * converts it, and says where a bad value came from); `failed` when the substitution itself was
 * reported.
 */
function interpolatedScalar(ctx: ReadContext, slot: Slot): { value: unknown; written?: string; failed?: true } {
  const value = scalarValue(slot);
  if (typeof value !== 'string' || !value.includes('${')) return { value };
  const substituted = ctx.interpolate(value, slot);
  return substituted === undefined ? { value, failed: true } : { value: substituted, written: value };
}

/** Reports that a substituted value is not what the field wants: `<path> must be <expected>, got "x" (from ${X})`. */
function reportSubstituted(ctx: ReadContext, slot: Slot, expected: string, value: string, written: string, hint?: string): undefined {
  ctx.report(slot, `${slot.path} must be ${expected}, got ${JSON.stringify(value)} (from ${written})`, hint);
  return undefined;
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

const STRING: JsonSchema = { type: 'string' };

/** A string, with `${ENV}` references substituted. */
export const readString: Reader<string> = reader(STRING, (ctx, slot) => {
  const value = scalarValue(slot);
  return typeof value === 'string' ? ctx.interpolate(value, slot) : reportType(ctx, slot, 'a string');
});

/** A name that must be defined elsewhere (a model, an agent, the entry), recorded for the reference check. */
export function referenceReader(kind: ReferenceKind): Reader<string> {
  return reader(STRING, (ctx, slot) => {
    const name = readString(ctx, slot);
    if (name !== undefined) ctx.refer(kind, name, slot);
    return name;
  });
}

/**
 * A string that only a run needs (an API key, a header, an MCP server's env value): like
 * {@link readString}, but an unset variable in it is a missing key, a warning when the load only
 * checks the file.
 */
export const readSecret: Reader<string> = reader(STRING, (ctx, slot) => {
  const value = scalarValue(slot);
  return typeof value === 'string' ? ctx.interpolate(value, slot, { secret: true }) : reportType(ctx, slot, 'a string');
});

/** `true` or `false`; also a `${NAME}` whose value is `true` or `false` (any case). */
export const readBoolean: Reader<boolean> = reader(
  (scope) => scope.orVariable({ type: 'boolean' }),
  (ctx, slot) => {
    const { value, written, failed } = interpolatedScalar(ctx, slot);
    if (failed === true) return undefined;
    if (typeof value === 'boolean') return value;
    if (written !== undefined && typeof value === 'string') {
      const lower = value.trim().toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : reportSubstituted(ctx, slot, 'true or false', value, written);
    }
    return reportType(ctx, slot, 'true or false');
  },
);

/** The range a number field accepts, in JSON Schema's words (so the check and the schema are one). */
export interface NumberBounds {
  readonly integer?: true;
  readonly minimum?: number;
  readonly exclusiveMinimum?: number;
  readonly maximum?: number;
}

function withinBounds(n: number, bounds: NumberBounds): boolean {
  return (
    (bounds.integer !== true || Number.isInteger(n)) &&
    (bounds.minimum === undefined || n >= bounds.minimum) &&
    (bounds.exclusiveMinimum === undefined || n > bounds.exclusiveMinimum) &&
    (bounds.maximum === undefined || n <= bounds.maximum)
  );
}

/**
 * A finite number within `bounds`; `expected` says what that is (`a positive integer`). A
 * `${NAME}` is substituted and its value read as a number (`maxTurns: ${MAX_TURNS:-5}`).
 */
export function numberReader(expected: string, bounds: NumberBounds): Reader<number> {
  const { integer, ...range } = bounds;
  const test = (n: number): boolean => withinBounds(n, bounds);
  return reader(
    (scope) => scope.orVariable({ type: integer === true ? 'integer' : 'number', ...range }),
    (ctx, slot) => {
      const { value, written, failed } = interpolatedScalar(ctx, slot);
      if (failed === true) return undefined;
      if (written !== undefined && typeof value === 'string') {
        const number = NUMBER.test(value.trim()) ? Number(value) : Number.NaN;
        return Number.isFinite(number) && test(number) ? number : reportSubstituted(ctx, slot, expected, value, written);
      }
      return typeof value === 'number' && Number.isFinite(value) && test(value) ? value : reportType(ctx, slot, expected);
    },
  );
}

/** An integer ≥ 1. */
export const readPositiveInteger = numberReader('a positive integer', { integer: true, minimum: 1 });
/** An integer ≥ 0. */
export const readNonNegativeInteger = numberReader('a non-negative integer', { integer: true, minimum: 0 });
/** A number > 0. */
export const readPositiveNumber = numberReader('a positive number', { exclusiveMinimum: 0 });
/** A number ≥ 0. */
export const readNonNegativeNumber = numberReader('a non-negative number', { minimum: 0 });

/** One of a fixed set of strings (a `${NAME}` substituted first); a near miss gets a "did you mean" hint. */
export function oneOfReader<const T extends string>(values: readonly T[]): Reader<T> {
  return reader(
    (scope) => scope.orVariable({ enum: [...values] }),
    (ctx, slot) => {
      const { value, written, failed } = interpolatedScalar(ctx, slot);
      if (failed === true) return undefined;
      if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
      const hint = typeof value === 'string' ? didYouMean(value, values) : undefined;
      if (written !== undefined && typeof value === 'string') return reportSubstituted(ctx, slot, `one of ${values.join(', ')}`, value, written, hint);
      return reportType(ctx, slot, `one of ${values.join(', ')}`, hint);
    },
  );
}

/** The items of a list, each read with `item`; bad items are reported and left out. */
export function listReader<T>(item: Reader<T>, options: { nonEmpty?: boolean } = {}): Reader<T[]> {
  const schema = (scope: SchemaScope): JsonSchema => ({ type: 'array', items: item.schema(scope), ...(options.nonEmpty === true ? { minItems: 1 } : {}) });
  return reader(schema, (ctx, slot) => {
    const node = slot.node;
    if (node === null || !isSeq(node)) return reportType(ctx, slot, 'a list');
    if (options.nonEmpty === true && node.items.length === 0) {
      ctx.report(slot, `${slot.path} must not be empty`);
      return undefined;
    }
    const out: T[] = [];
    node.items.forEach((child, index) => {
      const value = item(ctx, { path: childPath(slot.path, index), node: ctx.source.resolve(child as Node | null) });
      if (value !== undefined) out.push(value);
    });
    return out;
  });
}

/**
 * A list of names read with `item`, each at most once (a repeat is reported as
 * `duplicate <what> "name" in <path>` and left out); `onItem` sees each name kept.
 */
export function uniqueListReader<T extends string>(item: Reader<T>, what: string, onItem?: (ctx: ReadContext, name: T, slot: Slot) => void): Reader<T[]> {
  const list = listReader(item);
  return reader(
    (scope) => ({ ...list.schema(scope), uniqueItems: true }),
    (ctx, slot) => {
      const seen = new Set<string>();
      return listReader<T>(
        reader(item.schema, (c, s) => {
          const name = item(c, s);
          if (name === undefined) return undefined;
          if (seen.has(name)) {
            c.report(s, `duplicate ${what} "${name}" in ${slot.path}`);
            return undefined;
          }
          seen.add(name);
          onItem?.(c, name, s);
          return name;
        }),
      )(ctx, slot);
    },
  );
}

/**
 * The entries of a mapping. Keys must be plain strings; others are reported and skipped.
 * `what` names the mapping in messages when the slot has no path (the top of a file).
 */
export function readEntries(ctx: ReadContext, slot: Slot, what = slot.path): MapEntry[] | undefined {
  const node = slot.node;
  if (node === null || !isMap(node)) {
    ctx.report(slot, `${what} must be a mapping, got ${describeNode(node)}`);
    return undefined;
  }
  const entries: MapEntry[] = [];
  for (const pair of node.items) {
    const keyNode = pair.key as Node | null;
    const key = keyNode !== null && isScalar(keyNode) ? keyNode.value : undefined;
    if (typeof key !== 'string' || keyNode === null) {
      ctx.report({ path: slot.path, node: keyNode, key: node }, `keys of ${what} must be strings, got ${describeNode(keyNode)}`);
      continue;
    }
    entries.push({ key, slot: { path: childPath(slot.path, key), node: ctx.source.resolve(pair.value as Node | null), key: keyNode } });
  }
  return entries;
}

/**
 * A mapping with free keys (names), each entry read with `value`; bad entries are left out.
 * With `nonEmpty`, an empty mapping is reported.
 */
export function recordReader<T>(value: EntryReader<T>, options: { nonEmpty?: boolean } = {}): Reader<Record<string, T>> {
  const schema = (scope: SchemaScope): JsonSchema => ({
    type: 'object',
    ...(options.nonEmpty === true ? { minProperties: 1 } : {}),
    ...(value.keys === undefined ? {} : { propertyNames: value.keys(scope) }),
    additionalProperties: value.schema(scope),
  });
  return reader(schema, (ctx, slot) => {
    const entries = readEntries(ctx, slot);
    if (entries === undefined) return undefined;
    if (options.nonEmpty === true && entries.length === 0) ctx.report(slot, `${slot.path} must not be empty`);
    const out: [string, T][] = [];
    for (const entry of entries) {
      const read = value(ctx, entry);
      if (read !== undefined) out.push([entry.key, read]);
    }
    // fromEntries defines own properties, so a key like "__proto__" cannot reach the prototype.
    return Object.fromEntries(out);
  });
}

/** Any YAML value as plain JSON data, with `${ENV}` substituted in every string. */
export const readJson: Reader<unknown> = reader({}, (ctx, slot) => {
  const node = slot.node;
  if (node === null) return null;
  if (isScalar(node)) return typeof node.value === 'string' ? ctx.interpolate(node.value, slot) : node.value;
  if (isSeq(node))
    return node.items.map((child, index) => readJson(ctx, { path: childPath(slot.path, index), node: ctx.source.resolve(child as Node | null) }));
  const entries = readEntries(ctx, slot);
  if (entries === undefined) return undefined;
  return Object.fromEntries(entries.map((entry) => [entry.key, readJson(ctx, entry.slot)]));
});

/** A JSON Schema written in YAML (a mapping, `${ENV}` substituted), checked to compile. */
export const readJsonSchema: Reader<Record<string, unknown>> = reader({ type: 'object' }, (ctx, slot) => {
  const value = readJson(ctx, slot);
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.report(slot, `${slot.path} must be a JSON Schema (a mapping), got ${describeNode(slot.node)}`);
    return undefined;
  }
  try {
    sharedSchemaValidator().compile(value as Record<string, unknown>);
  } catch (error) {
    ctx.report(
      slot,
      `${slot.path} is not a valid JSON Schema: ${error instanceof Error ? error.message.replace(/^invalid JSON Schema: /, '') : String(error)}`,
    );
    return undefined;
  }
  return value as Record<string, unknown>;
});
