import { bubblewrapArgs, sandboxSupport, type SandboxScope } from './bubblewrap.js';
import type { SandboxPolicy } from '../../sandbox-policy.js';

/** How to start a command under a policy: the program and its arguments, or why it may not run. */
export type SandboxedArgv = { file: string; args: string[]; sandboxed: boolean } | { refused: string };

let warned = false;

/**
 * Wraps `argv` in a sandbox as `policy.mode` asks: `off` runs it as is; `auto` sandboxes it where
 * the machine can and otherwise runs it as is, warning once per process (on stderr); `required`
 * refuses to run it without a sandbox.
 */
export function sandboxedArgv(policy: SandboxPolicy, scope: SandboxScope, argv: readonly [string, ...string[]]): SandboxedArgv {
  const [file, ...args] = argv;
  if (policy.mode === 'off') return { file, args, sandboxed: false };
  const support = sandboxSupport();
  if (support.available) return { file: 'bwrap', args: bubblewrapArgs(policy, scope, argv), sandboxed: true };
  if (policy.mode === 'required') return { refused: `the sandbox is required but unavailable: ${support.detail}` };
  if (!warned) {
    warned = true;
    process.emitWarning(`tools run without a sandbox: ${support.detail} (set sandbox: off to silence this, or required to refuse)`, {
      code: 'TROUPE_NO_SANDBOX',
    });
  }
  return { file, args, sandboxed: false };
}
