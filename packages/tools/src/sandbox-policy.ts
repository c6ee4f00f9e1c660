/**
 * How a tool's processes are confined (`sandbox:` of an agent or an MCP server in a graph file):
 * - `off`: not at all;
 * - `auto` (the default): in an OS sandbox where the machine has one, else unconfined after one
 *   warning;
 * - `required`: in an OS sandbox, or not at all (the tool refuses to run).
 */
export type SandboxMode = 'off' | 'auto' | 'required';

/** The values of {@link SandboxMode}. */
export const SANDBOX_MODES: readonly SandboxMode[] = ['off', 'auto', 'required'];

/**
 * What a sandboxed process may do. The file system is read-only but for the workspace, the
 * `allowWrite` paths and a private temporary directory; the secret paths (`DEFAULT_SECRET_PATHS`
 * and `denyRead`) are hidden even from reading; the network is off unless `network.allow` names
 * hosts (reached through a filtering HTTP proxy) or says `*` (any host, directly).
 */
export interface SandboxPolicy {
  mode: SandboxMode;
  /** More paths it may write (absolute, or `~/…`). */
  allowWrite?: readonly string[];
  /** More paths hidden from it (absolute, or `~/…`): a graph's `.env`, say. */
  denyRead?: readonly string[];
  /**
   * The hosts it may reach (see `hostAllowed` for the forms: `api.github.com`, `*.github.com`,
   * `host:443`), through the HTTP(S) proxy its environment names; `['*']`: any host, directly.
   * Without it the network is off.
   */
  network?: { allow: readonly string[] };
}

/** The default policy: sandboxed where supported, network off. */
export const DEFAULT_SANDBOX_POLICY: SandboxPolicy = { mode: 'auto' };

/** Where credentials live by convention: hidden from every sandboxed process, even from reading. */
export const DEFAULT_SECRET_PATHS: readonly string[] = [
  '~/.ssh',
  '~/.aws',
  '~/.azure',
  '~/.config/gcloud',
  '~/.config/gh',
  '~/.kube',
  '~/.docker/config.json',
  '~/.gnupg',
  '~/.netrc',
  '~/.npmrc',
  '~/.pypirc',
  '~/.git-credentials',
];

/** Whether the policy lets the whole network through (`allow: ['*']`). */
export function networkAllowed(policy: SandboxPolicy): boolean {
  return policy.network?.allow.includes('*') === true;
}

/** The hosts the policy lets a sandbox reach through the filtering proxy: none when it allows all, or nothing. */
export function networkAllowList(policy: SandboxPolicy): readonly string[] {
  return networkAllowed(policy) ? [] : (policy.network?.allow ?? []);
}
