export { DEFAULT_DENY_RULES } from './node/bash/deny-list.js';
export { BASH_SETTINGS, createBashTool } from './node/bash/bash-tool.js';
export { createEditFileTool, EDIT_FILE_SETTINGS } from './node/files/edit-file-tool.js';
export { createReadFileTool, READ_FILE_SETTINGS } from './node/files/read-file-tool.js';
export { createWriteFileTool, WRITE_FILE_SETTINGS } from './node/files/write-file-tool.js';
export { createListFilesTool, LIST_FILES_SETTINGS } from './node/list/list-files-tool.js';
export { createNodeToolRegistry, nodeToolFactories } from './node/node-tools.js';
export { createSearchTool, SEARCH_SETTINGS } from './node/search/search-tool.js';
export { OUTSIDE_WORKSPACE, Workspace, WORKSPACE_UNAVAILABLE, WorkspaceError } from './node/workspace.js';

export type { DenyRule } from './node/bash/deny-list.js';
export type { BashArgs } from './node/bash/bash-tool.js';
export type { EditFileArgs } from './node/files/edit-file-tool.js';
export type { ReadFileArgs } from './node/files/read-file-tool.js';
export type { WriteFileArgs } from './node/files/write-file-tool.js';
export type { ListFilesArgs } from './node/list/list-files-tool.js';
export type { SearchArgs } from './node/search/search-tool.js';
export type { WorkspacePath } from './node/workspace.js';
