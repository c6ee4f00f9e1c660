import { TroupeError, type Tool } from '@troupe/core';
import { builtinToolFactories } from './builtin-tools.js';
import type { ToolFactory, ToolOptions } from './tool-factory.js';
import type { ToolSettingsSpec } from './tool-settings.js';
import { ToolErrorCode } from './tool-error-code.js';
import { UnknownToolError } from './unknown-tool-error.js';

/**
 * Tools by name: what a configuration file may list under an agent's `tools`.
 *
 * Contract: `names()` is stable for the registry's lifetime and `has(n)` agrees with it.
 * `create` returns a tool no other holder can change: a new instance per call for a tool that keeps
 * state or reads its options, or one frozen instance for a stateless tool (the built-in `ask_user`,
 * `task_complete`, `send_update`, `echo`), which agents share. It throws {@link UnknownToolError} for a name not in `names()`; it never returns `undefined`.
 * It throws the factory's `InvalidToolSettingsError` for settings the factory does not accept.
 */
export interface ToolRegistry {
  /** The known tool names, sorted. */
  names(): string[];
  has(name: string): boolean;
  /** The settings the named tool accepts (empty when it takes none), or `undefined` for an unknown name. */
  settingsOf(name: string): ToolSettingsSpec | undefined;
  /** The named tool (new, or shared and frozen when stateless); throws {@link UnknownToolError} for a name the registry does not know. */
  create(name: string, options?: ToolOptions): Tool;
}

/** Options of {@link createToolRegistry}. */
export interface ToolRegistryOptions {
  /** The factories to serve. Default: {@link builtinToolFactories}. */
  factories?: readonly ToolFactory[];
}

/**
 * Creates a tool registry. Each call makes an independent instance (there is no global one);
 * pass it down to whatever builds agents. Throws a `duplicate_tool` {@link TroupeError} when two
 * factories share a name. The default factories are the portable built-ins; the Node tools
 * (bash, files, search) come with `createNodeToolRegistry` from `@troupe/tools/node`.
 */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  const factories = new Map<string, ToolFactory>();
  for (const factory of options.factories ?? builtinToolFactories()) {
    if (factories.has(factory.name)) {
      throw new TroupeError(ToolErrorCode.DuplicateTool, `duplicate tool factory "${factory.name}"`, { data: { name: factory.name } });
    }
    factories.set(factory.name, factory);
  }
  const sorted = [...factories.keys()].sort();
  return {
    names: () => [...sorted],
    has: (name) => factories.has(name),
    settingsOf: (name) => {
      const factory = factories.get(name);
      return factory === undefined ? undefined : (factory.settings ?? {});
    },
    create(name, toolOptions = {}) {
      const factory = factories.get(name);
      if (factory === undefined) throw new UnknownToolError(name, sorted);
      return factory.create(toolOptions);
    },
  };
}
