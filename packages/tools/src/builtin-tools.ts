import { createClockTool } from './demo/clock-tool.js';
import { createEchoTool } from './demo/echo-tool.js';
import type { ToolFactory } from './tool-factory.js';

/**
 * The factories of the tools this package ships, as a fresh array on each call (so no caller can
 * change another's list). For now these are the `clock` and `echo` demo tools.
 */
export function builtinToolFactories(): ToolFactory[] {
  return [
    { name: 'clock', description: 'The current time as an ISO 8601 string.', create: (options) => createClockTool(options.now === undefined ? {} : { now: options.now }) },
    { name: 'echo', description: 'Returns its text argument.', create: () => createEchoTool() },
  ];
}
