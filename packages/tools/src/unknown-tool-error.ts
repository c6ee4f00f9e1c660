import { TroupeError } from '@troupe/core';
import { ToolErrorCode } from './tool-error-code.js';

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
