import type { ToolCall } from './messages.js';
import type { SchemaValidator } from './schema-validator.js';
import type { Tool } from './tool.js';

/* Why a call cannot run, as the error result the model gets instead. */

/** The problem of a call of a tool the agent does not have, naming those it has. */
export function unknownTool(call: ToolCall, tools: ReadonlyMap<string, Tool>): string {
  const names = [...tools.keys()];
  return `unknown tool "${call.name}". Available tools: ${names.length === 0 ? '(none)' : names.join(', ')}`;
}

/** The problem of a call whose arguments are not a JSON object or do not match its tool's schema; undefined when they do. */
export function invalidArguments(call: ToolCall, tool: Tool, validator: SchemaValidator): string | undefined {
  if (call.rawArguments !== undefined) {
    const raw = call.rawArguments.length > 200 ? `${call.rawArguments.slice(0, 200)}…` : call.rawArguments;
    return `invalid arguments for ${call.name}: not a JSON object: ${raw}`;
  }
  const outcome = validator.compile(tool.parameters)(call.arguments);
  return outcome.ok ? undefined : `invalid arguments for ${call.name}: ${outcome.problems.join('; ')}`;
}
