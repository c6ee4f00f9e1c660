/** The prefix a server's tools get by default: `<server>__`. */
export function defaultToolPrefix(server: string): string {
  return `${server}__`;
}

/**
 * The core tool name of a server's tool: the prefix plus the tool's name with every character
 * other than letters, digits, `_` and `-` replaced by `_` (model APIs accept only those; MCP
 * names may also contain `.`).
 */
export function exposedToolName(prefix: string, name: string): string {
  return `${prefix}${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}
