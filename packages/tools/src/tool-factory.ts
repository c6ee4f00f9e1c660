import type { Tool } from '@troupe/core';

/**
 * What the code that builds tools from configuration can hand to every tool factory. Each factory
 * takes what it needs and ignores the rest, so one options object serves a whole agent's tool list.
 */
export interface ToolOptions {
  /** The time source in epoch milliseconds, for tools that read the clock. Default: `Date.now`. */
  now?: () => number;
}

/**
 * Builds one kind of tool by name.
 *
 * Contract: `create` returns a new, independent tool each call and throws only for misuse
 * (options it cannot work with). `name` equals the `name` of the tools it creates.
 */
export interface ToolFactory {
  readonly name: string;
  readonly description: string;
  create(options: ToolOptions): Tool;
}
