import { sharedSchemaValidator } from '@troupe/core';

/** What model vendors accept as a tool name (OpenAI's rule, the strictest of them). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Why `value` is not a usable `Tool`, or `undefined` when it is one: a `name` the vendors
 * accept, a string `description`, `parameters` that are a JSON Schema of an object, an `execute`
 * function, and, when present, a string `label` and booleans `readOnly` and `idempotent`. For values that come
 * from code Troupe does not control (a graph's tool modules).
 */
export function toolShapeProblem(value: unknown): string | undefined {
  if (typeof value === 'function') return 'it is a function (export the tool itself, not a function that makes one)';
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `it is ${value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not a tool object`;
  const tool = value as Record<string, unknown>;
  if (typeof tool['name'] !== 'string') return 'it has no string "name"';
  if (!TOOL_NAME.test(tool['name'])) return `its name ${JSON.stringify(tool['name'])} is not 1 to 64 letters, digits, "_" or "-"`;
  if (typeof tool['description'] !== 'string') return `${tool['name']} has no string "description"`;
  if (typeof tool['execute'] !== 'function') return `${tool['name']} has no "execute" function`;
  const parameters = tool['parameters'];
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters) || (parameters as Record<string, unknown>)['type'] !== 'object') {
    return `the "parameters" of ${tool['name']} are not a JSON Schema with type "object"`;
  }
  try {
    sharedSchemaValidator().compile(parameters as Record<string, unknown>);
  } catch (error) {
    return `the "parameters" of ${tool['name']} are not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (tool['label'] !== undefined && typeof tool['label'] !== 'string') return `the "label" of ${tool['name']} is not a string`;
  for (const flag of ['readOnly', 'idempotent'])
    if (tool[flag] !== undefined && typeof tool[flag] !== 'boolean') return `the "${flag}" of ${tool['name']} is not true or false`;
  return undefined;
}

/** Whether `value` is meant as a tool (it has `execute` or `parameters`), valid or not. */
export function looksLikeTool(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ('execute' in value || 'parameters' in value);
}
