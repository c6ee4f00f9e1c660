import type { GraphConfig, Runtime } from '@troupe/runtime';

/**
 * The graph of the delegation benchmarks: a lead that runs `turns` turns of `perTurn` delegations
 * each (all in one turn run concurrently) to a helper that answers at once, then ends.
 */
export function delegationGraph(options: { turns: number; perTurn: number; helperPlacement?: 'local' | 'remote' }): GraphConfig {
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
      helper: { name: 'helper', spec: { provider: 'scripted', model: 'helper' }, script: [{ text: 'answer' }] },
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
