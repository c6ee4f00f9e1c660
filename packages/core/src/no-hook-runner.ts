import { HookRunner, NO_HOOKS } from './agent-hooks.js';

/**
 * The hook runner that agents without hooks share: with no hook to call, it never reports an
 * error nor reads a run's context, so it needs no agent of its own (a runner each, with its two
 * closures over the agent, was ~200 bytes per waiting agent).
 */
export const NO_HOOK_RUNNER = new HookRunner(NO_HOOKS, noReport, noContext);

function noReport(): void {}

function noContext(): never {
  throw new Error('no hook reads a context');
}
