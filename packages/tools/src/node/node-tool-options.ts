import type { ToolOptions } from '../tool-factory.js';
import { Workspace } from './workspace.js';

/** The setting every Node tool takes: the directory it works in and is confined to. */
export const WORKSPACE_SETTING = {
  workspace: { kind: 'path', description: "The directory the tool works in and is confined to. Default: the agent's workspace." },
} as const;

/** The workspace of a tool: its own setting, else the agent's, else the process's working directory. */
export function workspaceOf(options: ToolOptions, setting: string | undefined): Workspace {
  return new Workspace(setting ?? options.workspace ?? process.cwd());
}
