export { builtinToolFactories } from './builtin-tools.js';
export { createAskUserTool } from './control/ask-user-tool.js';
export { createSendUpdateTool } from './control/send-update-tool.js';
export { createTaskCompleteTool } from './control/task-complete-tool.js';
export { createClockTool } from './demo/clock-tool.js';
export { createEchoTool } from './demo/echo-tool.js';
export { globMatcher, globToRegExp } from './glob.js';
export { createToolRegistry } from './tool-registry.js';
export { InvalidToolSettingsError, parseToolSettings, regexProblem, settingProblem } from './tool-settings.js';
export { ToolErrorCode, UnknownToolError } from './unknown-tool-error.js';

export type { AskUserArgs } from './control/ask-user-tool.js';
export type { SendUpdateArgs } from './control/send-update-tool.js';
export type { TaskCompleteArgs } from './control/task-complete-tool.js';
export type { ClockToolOptions } from './demo/clock-tool.js';
export type { EchoArgs } from './demo/echo-tool.js';
export type { ToolFactory, ToolOptions } from './tool-factory.js';
export type { ToolRegistry, ToolRegistryOptions } from './tool-registry.js';
export type { ToolSettingKind, ToolSettingSpec, ToolSettingsSpec, ToolSettingValue, ToolSettingValues } from './tool-settings.js';
