import type { ToolSettingsSpec } from '@troupe/tools';

/** What tools a graph may name, and the settings each takes (what `parseGraph` is given). */
export interface ToolCatalog {
  names(): string[];
  /** The settings of a tool; without it, settings are passed on unchecked (the factory checks them). */
  settingsOf?(name: string): ToolSettingsSpec | undefined;
}
