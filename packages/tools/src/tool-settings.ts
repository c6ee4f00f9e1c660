import { TroupeError } from '@troupe/core';
import { ToolErrorCode } from './tool-error-code.js';

/**
 * The kinds of value a tool setting can hold. `path` is a string the loader of a configuration
 * file resolves against that file's directory; `regexList` is a list of regular expression
 * sources, each checked to compile.
 */
export type ToolSettingKind = 'string' | 'path' | 'boolean' | 'positiveInteger' | 'stringList' | 'regexList';

/** One setting a tool factory accepts (`timeoutMs` of `bash`). */
export interface ToolSettingSpec {
  readonly kind: ToolSettingKind;
  readonly description: string;
  /** For `string`: the only values allowed. */
  readonly values?: readonly string[];
}

/** The settings of one tool factory, by key. */
export type ToolSettingsSpec = Readonly<Record<string, ToolSettingSpec>>;

/** The TypeScript type a setting of kind `K` holds. */
export type ToolSettingValue<K extends ToolSettingKind> = K extends 'boolean'
  ? boolean
  : K extends 'positiveInteger'
    ? number
    : K extends 'stringList' | 'regexList'
      ? string[]
      : string;

/** The parsed settings of a spec: every key optional, each with its kind's type. */
export type ToolSettingValues<S extends ToolSettingsSpec> = { -readonly [K in keyof S]?: ToolSettingValue<S[K]['kind']> };

/** Thrown by a factory given settings it cannot use (configuration loaders report them earlier, with positions). */
export class InvalidToolSettingsError extends TroupeError {
  readonly problems: readonly string[];

  constructor(tool: string, problems: readonly string[]) {
    super(ToolErrorCode.InvalidToolSettings, `invalid settings for tool "${tool}": ${problems.join('; ')}`, { data: { tool, problems } });
    this.problems = problems;
  }
}

/** Why `value` is not a valid setting of `spec`, or `undefined` when it is. */
export function settingProblem(spec: ToolSettingSpec, value: unknown): string | undefined {
  switch (spec.kind) {
    case 'string':
    case 'path':
      if (typeof value !== 'string') return 'must be a string';
      if (spec.values !== undefined && !spec.values.includes(value)) return `must be one of ${spec.values.join(', ')}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'positiveInteger':
      return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? undefined : 'must be a positive integer';
    case 'stringList':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? undefined : 'must be a list of strings';
    case 'regexList':
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return 'must be a list of strings';
      for (const source of value as string[]) {
        const problem = regexProblem(source);
        if (problem !== undefined) return problem;
      }
      return undefined;
  }
}

/** Why `source` is not a valid regular expression, or `undefined`. */
export function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (error) {
    return `invalid regular expression ${JSON.stringify(source)}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Checks `settings` against `spec` and returns them typed. Throws {@link InvalidToolSettingsError}
 * listing every unknown key and bad value (misuse: loaders check settings before creating tools).
 */
export function parseToolSettings<S extends ToolSettingsSpec>(
  tool: string,
  spec: S,
  settings: Readonly<Record<string, unknown>> | undefined,
): ToolSettingValues<S> {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings ?? {})) {
    const setting = Object.hasOwn(spec, key) ? spec[key] : undefined;
    if (setting === undefined) {
      problems.push(`unknown setting "${key}" (known: ${Object.keys(spec).join(', ') || 'none'})`);
      continue;
    }
    const problem = settingProblem(setting, value);
    if (problem === undefined) values[key] = value;
    else problems.push(`${key} ${problem}`);
  }
  if (problems.length > 0) throw new InvalidToolSettingsError(tool, problems);
  return values as ToolSettingValues<S>;
}
