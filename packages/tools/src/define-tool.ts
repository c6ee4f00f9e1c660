import type { Tool, ToolContext, ToolResult } from '@troupe/core';
// Types only: the schema's own methods do the work, so importing `@troupe/tools` (as the runtime
// and every worker do) does not load zod, about 200 modules, 14 MB and 300 ms at start-up. Whoever
// calls defineTool has zod loaded already, and it is their copy of zod that runs.
import type { z } from 'zod';

/** What a tool's `execute` may return: a result, or a string as shorthand for `{ content: text }`. */
export type ToolReturn = ToolResult | string;

/** The arguments of {@link defineTool}: a tool whose `parameters` are a zod object schema. */
export interface ToolDefinition<Schema extends z.ZodType<Record<string, unknown>>> {
  /** What the model calls it: 1 to 64 letters, digits, `_` or `-`. */
  readonly name: string;
  /** Human-readable name for UIs. */
  readonly label?: string;
  /** Tells the model what the tool does and when to use it. */
  readonly description: string;
  /** The arguments, as `z.object({ … })` (`.describe()` texts reach the model). Default: no arguments. */
  readonly parameters?: Schema;
  /** True when the tool changes nothing: the `smart` permission mode runs it without asking. */
  readonly readOnly?: boolean;
  /**
   * True when running it again with the same arguments has no further effect: an agent restored
   * while the call ran runs it again. Other calls that are not read-only get an "interrupted"
   * result instead (they may have taken effect).
   */
  readonly idempotent?: boolean;
  /** Runs the tool on arguments already parsed by `parameters` (defaults applied, types inferred). */
  execute(args: z.output<Schema>, ctx: ToolContext): ToolReturn | Promise<ToolReturn>;
}

/**
 * A {@link Tool} from a zod schema: the argument type of `execute` is inferred from
 * `parameters`, the JSON Schema sent to the model is derived from it (`z.toJSONSchema`, input
 * side, so fields with defaults are optional), and every call's arguments are parsed with it
 * before `execute` runs: arguments it rejects (a refinement JSON Schema cannot express, a wrong
 * type) give the model an error result naming each problem, and `execute` is not called.
 *
 * ```ts
 * export default defineTool({
 *   name: 'weather',
 *   description: 'The weather in a city today.',
 *   parameters: z.object({ city: z.string().describe('The city') }),
 *   readOnly: true,
 *   execute: async ({ city }) => `Sunny in ${city}`,
 * });
 * ```
 *
 * Throws a TypeError at once (misuse) for a bad name, or a schema that is not an object or has no
 * JSON Schema form (`z.date()`, a transform on the input side). Needs zod 4.2 or later (classic
 * `zod`, whose schemas have `toJSONSchema`).
 */
export function defineTool<Schema extends z.ZodType<Record<string, unknown>> = z.ZodObject<Record<never, never>>>(definition: ToolDefinition<Schema>): Tool {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(definition.name)) {
    throw new TypeError(`defineTool: the name ${JSON.stringify(definition.name)} must be 1 to 64 letters, digits, "_" or "-"`);
  }
  const schema: z.ZodType<Record<string, unknown>> | undefined = definition.parameters;
  const parameters = schema === undefined ? { ...NO_ARGUMENTS } : jsonSchemaOf(definition.name, schema);
  return {
    name: definition.name,
    description: definition.description,
    parameters,
    ...(definition.label === undefined ? {} : { label: definition.label }),
    ...(definition.readOnly === undefined ? {} : { readOnly: definition.readOnly }),
    ...(definition.idempotent === undefined ? {} : { idempotent: definition.idempotent }),
    async execute(args, ctx) {
      // Without a schema, as `z.object({})` would parse it: core passes only JSON objects, and the
      // tool sees none of their keys.
      let input: Record<string, unknown> = {};
      if (schema !== undefined) {
        const parsed = await schema.safeParseAsync(args);
        if (!parsed.success) return { content: `invalid arguments for ${definition.name}:\n${await prettified(parsed.error)}`, isError: true };
        input = parsed.data;
      }
      const result = await definition.execute(input as z.output<Schema>, ctx);
      return typeof result === 'string' ? { content: result } : result;
    },
  };
}

/** What `z.toJSONSchema(z.object({}))` gives, without its `$schema`: a tool with no arguments. */
const NO_ARGUMENTS: Readonly<Record<string, unknown>> = { type: 'object', properties: {} };

/** zod's own report of the problems, with zod loaded only when arguments are rejected. */
async function prettified(error: z.ZodError): Promise<string> {
  const { z: zod } = await import('zod');
  return zod.prettifyError(error);
}

/** The JSON Schema of the arguments the model sends (draft-07, without `$schema`: some vendors reject it). */
function jsonSchemaOf(name: string, schema: z.ZodType): Record<string, unknown> {
  if (typeof schema.toJSONSchema !== 'function') {
    throw new TypeError(`defineTool: the parameters of ${name} must be a zod schema (zod 4.2 or later, from "zod", not "zod/mini")`);
  }
  let json: Record<string, unknown>;
  try {
    json = schema.toJSONSchema({ io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  } catch (error) {
    throw new TypeError(`defineTool: the parameters of ${name} have no JSON Schema form: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  const { $schema: _draft, ...rest } = json;
  if (rest['type'] !== 'object') throw new TypeError(`defineTool: the parameters of ${name} must be a z.object(…) schema`);
  return rest;
}
