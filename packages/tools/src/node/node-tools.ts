import { builtinToolFactories } from '../builtin-tools.js';
import type { ToolFactory } from '../tool-factory.js';
import { createToolRegistry, type ToolRegistry } from '../tool-registry.js';
import { BASH_SETTINGS, createBashTool } from './bash/bash-tool.js';
import { createEditFileTool, EDIT_FILE_SETTINGS } from './files/edit-file-tool.js';
import { createReadFileTool, READ_FILE_SETTINGS } from './files/read-file-tool.js';
import { createWriteFileTool, WRITE_FILE_SETTINGS } from './files/write-file-tool.js';
import { createListFilesTool, LIST_FILES_SETTINGS } from './list/list-files-tool.js';
import { createSearchTool, SEARCH_SETTINGS } from './search/search-tool.js';

/**
 * The factories of the Node tools, as a fresh array on each call: `bash`, `read_file`,
 * `write_file`, `edit_file`, `list_files` and `search`. Each takes a `workspace` setting (else the
 * agent's workspace, else the process's working directory) plus its own settings.
 */
export function nodeToolFactories(): ToolFactory[] {
  return [
    { name: 'bash', description: 'Runs a shell command in the workspace.', settings: BASH_SETTINGS, create: createBashTool },
    { name: 'read_file', description: 'Reads a text file (line-numbered, paged) or an image.', settings: READ_FILE_SETTINGS, create: createReadFileTool },
    { name: 'write_file', description: 'Creates or replaces a file, atomically.', settings: WRITE_FILE_SETTINGS, create: createWriteFileTool },
    { name: 'edit_file', description: 'Replaces an exact snippet of a file.', settings: EDIT_FILE_SETTINGS, create: createEditFileTool },
    { name: 'list_files', description: 'Lists files, with a glob and a depth.', settings: LIST_FILES_SETTINGS, create: createListFilesTool },
    { name: 'search', description: 'Searches file contents for a regular expression.', settings: SEARCH_SETTINGS, create: createSearchTool },
  ];
}

/**
 * A registry of every tool this package ships: the portable built-ins (`ask_user`,
 * `task_complete`, `send_update`, `clock`, `echo`) and the Node tools. What the runtime uses
 * unless given another registry.
 */
export function createNodeToolRegistry(): ToolRegistry {
  return createToolRegistry({ factories: [...builtinToolFactories(), ...nodeToolFactories()] });
}
