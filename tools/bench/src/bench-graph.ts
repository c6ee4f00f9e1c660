import type { GraphConfig, Runtime } from '@troupe/runtime';

/** The shape of {@link delegationGraph}: the graph's hash covers all of it, so a worker must be given the same. */
export interface DelegationShape {
  turns: number;
  perTurn: number;
  helperPlacement?: 'local' | 'remote';
  /** How long the helper's model takes to answer, in ms (default 0: at once). */
  helperModelMs?: number;
}

/**
 * The graph of the delegation benchmarks: a lead that runs `turns` turns of `perTurn` delegations
 * each (all in one turn run concurrently) to a helper that answers (at once, or after
 * `helperModelMs`), then ends.
 */
export function delegationGraph(options: DelegationShape): GraphConfig {
  const answer = { text: 'answer', ...(options.helperModelMs ? { delayMs: options.helperModelMs } : {}) };
  const call = { name: 'delegate_to_helper', arguments: { task: 'answer' } };
  return {
    version: 1,
    file: 'bench.yaml',
    entry: 'lead',
    models: {
      lead: {
        name: 'lead',
        spec: { provider: 'scripted', model: 'lead' },
        script: [...Array.from({ length: options.turns }, () => ({ toolCalls: Array.from({ length: options.perTurn }, () => call) })), { text: 'done' }],
      },
      helper: { name: 'helper', spec: { provider: 'scripted', model: 'helper' }, script: [answer] },
    },
    agents: {
      // Not capped: the default turn cap (50) would end the lead's run early.
      lead: { name: 'lead', model: 'lead', tools: [], delegates: ['helper'], limits: { maxTurns: Infinity } },
      helper: { name: 'helper', model: 'helper', tools: [], ...(options.helperPlacement === undefined ? {} : { placement: options.helperPlacement }) },
    },
  };
}

/** Runs `runtime`'s entry once on `go`, closes it, and resolves with the run's wall time in ms; throws unless the run ended done. */
export async function timedRun(runtime: Runtime): Promise<number> {
  const started = performance.now();
  const result = await runtime.run('go').result;
  const elapsed = performance.now() - started;
  await runtime.close();
  if (result.status !== 'done' || result.stopReason !== 'stop')
    throw new Error(`run ended ${result.status} (${result.stopReason}): ${result.error?.message ?? ''}`);
  return elapsed;
}
