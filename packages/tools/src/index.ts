export { builtinToolFactories } from './builtin-tools.js';
export { createClockTool } from './demo/clock-tool.js';
export { createEchoTool } from './demo/echo-tool.js';
export { createToolRegistry } from './tool-registry.js';
export { ToolErrorCode, UnknownToolError } from './unknown-tool-error.js';

export type { ClockToolOptions } from './demo/clock-tool.js';
export type { EchoArgs } from './demo/echo-tool.js';
export type { ToolFactory, ToolOptions } from './tool-factory.js';
export type { ToolRegistry, ToolRegistryOptions } from './tool-registry.js';
