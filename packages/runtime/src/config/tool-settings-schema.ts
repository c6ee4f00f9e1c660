import { dirname, isAbsolute, resolve } from 'node:path';
import { regexProblem, type ToolSettingSpec, type ToolSettingsSpec } from '@troupe/tools';
import { didYouMean } from './did-you-mean.js';
import type { ReadContext, Slot } from './read-context.js';
import { listReader, oneOfReader, readBoolean, readEntries, readPositiveInteger, readString, type Reader } from './yaml-readers.js';

/** What tools a graph may name, and the settings each takes (what `parseGraph` is given). */
export interface ToolCatalog {
  names(): string[];
  /** The settings of a tool; without it, settings are passed on unchecked (the factory checks them). */
  settingsOf?(name: string): ToolSettingsSpec | undefined;
}

/** `path` as written in the file being read, made absolute against that file's directory. */
export function pathFromFile(ctx: ReadContext, path: string): string {
  return isAbsolute(path) ? path : resolve(dirname(ctx.source.file), path);
}

/** A path relative to the directory of the file it is written in, made absolute. */
export const readPath: Reader<string> = (ctx, slot) => {
  const path = readString(ctx, slot);
  return path === undefined ? undefined : pathFromFile(ctx, path);
};

const readRegex: Reader<string> = (ctx, slot) => {
  const source = readString(ctx, slot);
  if (source === undefined) return undefined;
  const problem = regexProblem(source);
  if (problem === undefined) return source;
  ctx.report(slot, `${slot.path}: ${problem}`);
  return undefined;
};

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
      const hint = didYouMean(entry.key, known) ?? (known.length === 0 ? `${tool} takes no settings` : `${tool} takes ${known.map((k) => `"${k}"`).join(', ')}`);
      ctx.report(at, `unknown setting "${entry.key}" for tool ${tool} in ${slot.path}`, hint);
      continue;
    }
    const value = readerFor(setting)(ctx, entry.slot);
    if (value !== undefined) values[entry.key] = value;
  }
  return values;
}
