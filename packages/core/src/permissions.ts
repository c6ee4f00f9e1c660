import type { ToolCall } from './messages.js';
import type { Tool } from './tool.js';

/** What a policy says of one call. */
export type PermissionVerdict = 'allow' | 'ask' | 'deny';

/**
 * The user's answer to a permission request:
 * `allow_once` runs this call; `allow_always` runs it and every later call of the tool in this
 * session; `deny_never` refuses it and every later call of the tool ("permission denied", the loop
 * goes on); `deny_interrupt` refuses it, runs no further tool and stops the run until the next prompt.
 */
export type PermissionDecision = 'allow_once' | 'allow_always' | 'deny_interrupt' | 'deny_never';

/** Every {@link PermissionDecision}, for validating input. */
export const PERMISSION_DECISIONS: readonly PermissionDecision[] = ['allow_once', 'allow_always', 'deny_interrupt', 'deny_never'];

/**
 * How calls are vetted:
 * `smart` (the default) runs read-only tools and asks for the rest; `ask` is the same (a
 * read-only tool is never asked about in any mode but `deny`); `allow` runs everything; `deny`
 * nothing. `tools` overrides the mode per tool name (`{ read_file: ask }` asks even for a
 * read-only tool).
 */
export interface PermissionRules {
  mode: 'allow' | 'ask' | 'deny' | 'smart';
  tools?: Record<string, PermissionVerdict>;
}

/** A custom policy: called for each call that has no remembered decision. */
export type PermissionFunction = (call: ToolCall, tool: Tool | undefined) => PermissionVerdict;

/** A permission policy: declarative rules or a function. */
export type PermissionPolicy = PermissionRules | PermissionFunction;

/** Decisions remembered for the session (`allow_always`, `deny_never`), keyed by tool name. */
export type RememberedPermissions = Record<string, 'allow' | 'deny'>;

/** The verdict for one call: remembered decisions first, then the policy. */
export function evaluatePermission(policy: PermissionPolicy, remembered: RememberedPermissions, call: ToolCall, tool: Tool | undefined): PermissionVerdict {
  const memory = remembered[call.name];
  if (memory !== undefined) return memory;
  if (typeof policy === 'function') return policy(call, tool);
  const override = policy.tools?.[call.name];
  if (override !== undefined) return override;
  switch (policy.mode) {
    case 'allow':
      return 'allow';
    case 'deny':
      return 'deny';
    case 'ask':
    case 'smart':
      return tool?.readOnly === true ? 'allow' : 'ask';
  }
}

/** The policy of an agent that sets none: read-only tools run, every other tool asks. */
export const DEFAULT_PERMISSIONS: Readonly<PermissionRules> = Object.freeze({ mode: 'smart' });
