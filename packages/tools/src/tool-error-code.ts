/** Stable error codes of the tools package. */
export const ToolErrorCode = {
  /** A tool name that no factory in the registry provides. */
  UnknownTool: 'unknown_tool',
  /** Two factories with the same name were given to one registry. */
  DuplicateTool: 'duplicate_tool',
  /** A factory was given settings it does not know or cannot use. */
  InvalidToolSettings: 'invalid_tool_settings',
  /** A path refused because it leads outside the workspace (by `..`, an absolute path or a symbolic link). */
  OutsideWorkspace: 'outside_workspace',
  /** A path no file tool accepts whatever the workspace: one with a NUL byte, or one starting with `~` (never expanded). */
  InvalidPath: 'invalid_path',
  /** A file with several hard links, which file tools do not read or edit: another of its names may lie outside the workspace. */
  HardLinked: 'hard_linked',
  /** A workspace directory that does not exist or cannot be read. */
  WorkspaceUnavailable: 'workspace_unavailable',
} as const;

/** One of the {@link ToolErrorCode} values. */
export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode];
