import { createAskUserTool } from './control/ask-user-tool.js';
import { createSendUpdateTool } from './control/send-update-tool.js';
import { createTaskCompleteTool } from './control/task-complete-tool.js';
import { createClockTool } from './demo/clock-tool.js';
import { createEchoTool } from './demo/echo-tool.js';
import type { Tool } from '@troupe/core';
import type { ToolFactory, ToolOptions } from './tool-factory.js';
import { parseToolSettings } from './tool-settings.js';

/** A factory of a tool that takes no settings (given any, `create` throws). */
function plain(name: string, description: string, create: (options: ToolOptions) => Tool): ToolFactory {
  return {
    name,
    description,
    settings: {},
    create(options) {
      parseToolSettings(name, {}, options.settings);
      return create(options);
    },
  };
}

/**
 * The factories of the portable tools this package ships, as a fresh array on each call (so no
 * caller can change another's list): the control tools `ask_user`, `task_complete` and
 * `send_update`, and the `clock` and `echo` demo tools. The Node tools (bash, files, search) are
 * in `nodeToolFactories()` of `@troupe/tools/node`.
 */
export function builtinToolFactories(): ToolFactory[] {
  return [
    plain('ask_user', 'Asks the user a question and waits for the answer.', () => createAskUserTool()),
    plain('task_complete', 'Ends the run with a summary.', () => createTaskCompleteTool()),
    plain('send_update', 'Reports progress without stopping.', () => createSendUpdateTool()),
    plain('clock', 'The current time as an ISO 8601 string.', (options) => createClockTool(options.now === undefined ? {} : { now: options.now })),
    plain('echo', 'Returns its text argument.', () => createEchoTool()),
  ];
}
