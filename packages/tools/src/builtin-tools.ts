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
 * A factory of a stateless tool that takes no settings nor options: it makes the tool once, at its
 * first `create`, frozen, and returns that instance on every call. Each agent got a fresh copy
 * before, with its own schema objects, which every one of 10,000 agents waiting on `ask_user`
 * kept (a few hundred bytes each, and as many schema lookups at agent creation).
 */
function stateless(name: string, description: string, create: () => Tool): ToolFactory {
  let made: Tool | undefined;
  return plain(name, description, () => {
    made ??= deepFreeze(create());
    return made;
  });
}

/** Freezes `value` and every object it holds, so no holder of a shared tool can change it for the others. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The factories of the portable tools this package ships, as a fresh array on each call (so no
 * caller can change another's list): the control tools `ask_user`, `task_complete` and
 * `send_update`, and the `clock` and `echo` demo tools. The Node tools (bash, files, search) are
 * in `nodeToolFactories()` of `@troupe/tools/node`. The stateless ones (`ask_user`,
 * `task_complete`, `send_update`, `echo`) are one frozen instance per factory; `clock` reads its
 * options, so it is new on each `create`.
 */
export function builtinToolFactories(): ToolFactory[] {
  return [
    stateless('ask_user', 'Asks the user a question and waits for the answer.', createAskUserTool),
    stateless('task_complete', 'Ends the run with a summary.', createTaskCompleteTool),
    stateless('send_update', 'Reports progress without stopping.', createSendUpdateTool),
    plain('clock', 'The current time as an ISO 8601 string.', (options) => createClockTool(options.now === undefined ? {} : { now: options.now })),
    stateless('echo', 'Returns its text argument.', createEchoTool),
  ];
}
