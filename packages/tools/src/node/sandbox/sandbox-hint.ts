/**
 * A line for the model when a sandboxed command failed against the sandbox rather than on its
 * own: what the sandbox denied, in words it can act on, or undefined when nothing points to it.
 */
export function sandboxHint(stderr: string): string | undefined {
  if (/Read-only file system/i.test(stderr))
    return 'permission denied by the sandbox: write outside the workspace (only the workspace and $TMPDIR are writable)';
  if (/Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo E(AI_AGAIN|NOTFOUND)|ENETUNREACH/i.test(stderr)) {
    return 'permission denied by the sandbox: network access (the network is off for this agent)';
  }
  return undefined;
}
