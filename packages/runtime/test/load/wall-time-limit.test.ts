/**
 * Load probe (issue #20): an agent whose tools never resolve is stopped by its wall-time limit
 * (`limits.maxWallTimeMs`, core's `Limits`), through the Runtime. The run ends with the
 * `maxWallTimeMs` limit instead of hanging, and every hanging call — the agent's own ten and those
 * of the child it delegated to — sees its AbortSignal fire.
 */
import type { AgentEvent } from '@troupe/core';
import { createToolRegistry, type ToolFactory } from '@troupe/tools';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/index.js';
import { delegate, testGraph } from '../../src/testing.js';

const CALLS = 10;

/** A tool whose calls never resolve; it keeps each call's signal. */
function hangingTool(signals: Map<string, AbortSignal>): ToolFactory {
  return {
    name: 'hang',
    description: 'Never answers.',
    create: () => ({
      name: 'hang',
      description: 'Never answers.',
      parameters: { type: 'object', properties: { n: { type: 'number' } } },
      readOnly: true,
      execute: (_args, ctx) => {
        signals.set(`${ctx.agentPath}:${ctx.toolCallId}`, ctx.signal);
        return new Promise(() => undefined);
      },
    }),
  };
}

describe('load: a wall-time limit over tools that never resolve', () => {
  it('ends the run with the limit and fires every tool call signal', async () => {
    const signals = new Map<string, AbortSignal>();
    const hang = Array.from({ length: CALLS }, (_, n) => ({ name: 'hang', arguments: { n } }));
    const graph = testGraph({
      lead: {
        tools: ['hang'],
        delegates: ['helper'],
        limits: { maxWallTimeMs: 500 },
        script: [{ toolCalls: [...hang, delegate('helper', 'hang too')] }, { text: 'never' }],
      },
      helper: { tools: ['hang'], script: [{ toolCalls: hang }, { text: 'never' }] },
    });
    const runtime = createRuntime({ graph, tools: createToolRegistry({ factories: [hangingTool(signals)] }) });
    const run = runtime.run('go');
    const ends: AgentEvent[] = [];
    run.events$.subscribe((e) => e.type === 'agent_end' && ends.push(e));

    const result = await run.result;

    expect(result.agent?.stopReason).toBe('limit');
    expect(result.agent?.limit?.kind).toBe('maxWallTimeMs');
    expect(signals.size).toBe(2 * CALLS);
    expect([...signals.entries()].filter(([, signal]) => !signal.aborted).map(([key]) => key)).toEqual([]);
    // The child ended too (aborted with its parent's call), not left running.
    expect(await runtime.transport.result(run.id, 'lead/helper#1' as never)).toMatchObject({ stopReason: 'aborted' });
    await runtime.close();
  });
});
