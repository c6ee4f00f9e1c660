import { dirname, isAbsolute, resolve } from 'node:path';
import { regexProblem, type ToolSettingSpec, type ToolSettingsSpec } from '@troupe/tools';
import { didYouMean } from './did-you-mean.js';
import { objectSchema } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { reader, type Reader } from './reader.js';
import type { JsonSchema, SchemaScope } from './schema-scope.js';
import { listReader, oneOfReader, readBoolean, readEntries, readPositiveInteger, readString } from './yaml-readers.js';

// The catalog lives in its own leaf file (read-context needs it too); re-exported for the package index.
export type { ToolCatalog } from './tool-catalog.js';

/** `path` as written in the file being read, made absolute against that file's directory. */
export function pathFromFile(ctx: ReadContext, path: string): string {
  return isAbsolute(path) ? path : resolve(dirname(ctx.source.file), path);
}

/** A path relative to the directory of the file it is written in, made absolute. */
export const readPath: Reader<string> = reader(readString.schema, (ctx, slot) => {
  const path = readString(ctx, slot);
  return path === undefined ? undefined : pathFromFile(ctx, path);
});

const readRegex: Reader<string> = reader(readString.schema, (ctx, slot) => {
  const source = readString(ctx, slot);
  if (source === undefined) return undefined;
  const problem = regexProblem(source);
  if (problem === undefined) return source;
  ctx.report(slot, `${slot.path}: ${problem}`);
  return undefined;
});

function readerFor(spec: ToolSettingSpec): Reader<unknown> {
  switch (spec.kind) {
    case 'string':
      return spec.values === undefined ? readString : oneOfReader(spec.values);
    case 'path':
      return readPath;
    case 'boolean':
      return readBoolean;
    case 'positiveInteger':
      return readPositiveInteger;
    case 'stringList':
      return listReader(readString);
    case 'regexList':
      return listReader(readRegex);
  }
}

/** The JSON Schema of a tool's settings: a mapping of the keys it declares, each with its description. */
export function toolSettingsSchema(spec: ToolSettingsSpec, scope: SchemaScope): JsonSchema {
  const fields = Object.fromEntries(Object.entries(spec).map(([key, setting]) => [key, { read: readerFor(setting), description: setting.description }]));
  return objectSchema(fields, scope);
}

/**
 * The settings of one tool in an agent's list (`- bash: { timeoutMs: 5000 }`), checked against
 * what the tool declares: unknown keys (with a "did you mean" hint or the known keys) and values
 * of the wrong kind are reported at their positions; `path` settings are resolved against the
 * graph file's directory. With no spec (an unknown tool, or a catalog without settings) the
 * mapping is only checked to be one.
 */
export function readToolSettings(ctx: ReadContext, slot: Slot, tool: string, spec: ToolSettingsSpec | undefined): Record<string, unknown> | undefined {
  const entries = readEntries(ctx, slot);
  if (entries === undefined || spec === undefined) return undefined;
  const known = Object.keys(spec);
  const values: Record<string, unknown> = {};
  for (const entry of entries) {
    const setting = Object.hasOwn(spec, entry.key) ? spec[entry.key] : undefined;
    if (setting === undefined) {
      const at: Slot = entry.slot.key === undefined ? entry.slot : { path: entry.slot.path, node: entry.slot.key };
      const hint =
        didYouMean(entry.key, known) ?? (known.length === 0 ? `${tool} takes no settings` : `${tool} takes ${known.map((k) => `"${k}"`).join(', ')}`);
      ctx.report(at, `unknown setting "${entry.key}" for tool ${tool} in ${slot.path}`, hint);
      continue;
    }
    const value = readerFor(setting)(ctx, entry.slot);
    if (value !== undefined) values[entry.key] = value;
  }
  return values;
}
