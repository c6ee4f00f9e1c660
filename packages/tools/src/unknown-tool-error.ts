import { TroupeError } from '@troupe/core';

/** Stable error codes of the tools package. */
export const ToolErrorCode = {
  /** A tool name that no factory in the registry provides. */
  UnknownTool: 'unknown_tool',
  /** Two factories with the same name were given to one registry. */
  DuplicateTool: 'duplicate_tool',
  /** A factory was given settings it does not know or cannot use. */
  InvalidToolSettings: 'invalid_tool_settings',
} as const;

/** One of the {@link ToolErrorCode} values. */
export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode];

/** Thrown by a tool registry for a name it does not know; `available` lists the names it does. */
export class UnknownToolError extends TroupeError {
  readonly toolName: string;
  readonly available: readonly string[];

  constructor(name: string, available: readonly string[]) {
    const list = available.length === 0 ? 'none' : available.join(', ');
    super(ToolErrorCode.UnknownTool, `unknown tool "${name}": available tools: ${list}`, { data: { name, available } });
    this.toolName = name;
    this.available = available;
  }
}
