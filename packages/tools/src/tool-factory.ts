import type { Tool } from '@troupe/core';
import type { ProcessGroupTracker } from './process-group-tracker.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import type { ToolSettingsSpec } from './tool-settings.js';

/**
 * What the code that builds tools from configuration hands to a tool factory: what every tool of
 * an agent shares (the clock, the working directory) plus this tool's own `settings`. Each
 * factory takes what it needs and ignores the rest.
 */
export interface ToolOptions {
  /** The time source in epoch milliseconds, for tools that read the clock. Default: `Date.now`. */
  now?: () => number;
  /**
   * The agent's working directory: where `bash` runs and the root every file tool is confined to.
   * A tool's own `workspace` setting overrides it. Default: the process's working directory.
   */
  workspace?: string;
  /** Where tools that start process groups (`bash`) report them while they run. Default: nowhere. */
  processGroups?: ProcessGroupTracker;
  /** How the processes of tools that start them (`bash`) are confined. Default: `{ mode: 'auto' }`. */
  sandbox?: SandboxPolicy;
  /** This tool's settings (YAML `- bash: { timeoutMs: 5000 }`), checked against the factory's `settings`. */
  settings?: Readonly<Record<string, unknown>>;
}

/**
 * Builds one kind of tool by name.
 *
 * Contract: `create` returns an independent tool each call (a new one, or, for a tool that keeps no
 * state and reads no options, one frozen instance every caller shares) and throws only for misuse
 * (settings it does not declare or cannot use: an `InvalidToolSettingsError`). `name` equals the
 * `name` of the tools it creates. `settings` lists every setting `create` accepts, so a loader can
 * check a configuration file before anything is created.
 */
export interface ToolFactory {
  readonly name: string;
  readonly description: string;
  readonly settings?: ToolSettingsSpec;
  create(options: ToolOptions): Tool;
}
