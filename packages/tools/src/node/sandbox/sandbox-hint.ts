import type { SandboxPolicy } from '../../sandbox-policy.js';

/**
 * A line for the model when a command sandboxed under `policy` failed against the sandbox rather
 * than on its own: what the sandbox denied, in words it can act on, or undefined when nothing
 * points to it. A network failure is the sandbox's only when the policy allows no host at all
 * (with an allow-list, the proxy says itself which host it refused).
 */
export function sandboxHint(stderr: string, policy: SandboxPolicy): string | undefined {
  if (/Read-only file system/i.test(stderr))
    return 'permission denied by the sandbox: write outside the workspace (only the workspace and $TMPDIR are writable)';
  if (policy.network === undefined || policy.network.allow.length === 0) {
    if (/Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo E(AI_AGAIN|NOTFOUND)|ENETUNREACH/i.test(stderr)) {
      return 'permission denied by the sandbox: network access (the network is off for this agent)';
    }
  }
  return undefined;
}
