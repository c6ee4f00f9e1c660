/**
 * Two coordinators answering one waiting run at once (issue #20): a remote child asks a question,
 * is put aside by its worker, and two coordinator runtimes on their own connections send their
 * replies to it at the same moment. One wins: its reply wakes the child and the run ends with it;
 * the other is refused at once with `run_already_answered` ("already answered"), and its reply
 * reaches nobody — the child's history holds one answer.
 */
import { textOf, TroupeError, type AgentPath } from '@troupe/core';
import { RunStoreErrorCode, type Runtime } from '@troupe/runtime';
import { askTool, delegate, finished, testGraph, untilWaiting } from '@troupe/runtime/testing';
import { createToolRegistry } from '@troupe/tools';
import { describe, expect, it } from 'vitest';
import { loadSnapshot } from '../../src/index.js';
import { useClusters } from '../cluster.js';

const tools = createToolRegistry({ factories: [askTool] });
const graph = testGraph({
  lead: { delegates: ['asker'], script: [{ toolCalls: [delegate('asker', 'ask them')] }, { text: 'lead: {{lastToolResult}}' }] },
  asker: {
    placement: 'remote',
    tools: ['ask'],
    script: [{ toolCalls: [{ name: 'ask', arguments: { question: 'Which city?' } }] }, { text: 'city {{lastToolResult}}' }],
  },
});
const ASKER = 'lead/asker#1' as AgentPath;

const startCluster = useClusters();

describe('two coordinators answering one waiting run at once', () => {
  it('lets one win; the other is told it was already answered', { timeout: 60_000 }, async () => {
    const cluster = await startCluster({ graph, tools, workers: 2 });
    const other = await cluster.addCoordinator(graph);
    const run = cluster.runtime.run('go');
    await untilWaiting(run);
    await expect.poll(() => cluster.workers.reduce((n, w) => n + w.load().parked, 0), { timeout: 20_000 }).toBe(1);

    const answer = (runtime: Runtime, city: string): Promise<string> =>
      runtime.transport.control(run.id, ASKER, { type: 'reply', answer: city }).then(() => city);
    const outcomes = await Promise.allSettled([answer(cluster.runtime, 'Lisbon'), answer(other, 'Porto')]);

    const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(TroupeError);
    expect(lost[0]).toMatchObject({ code: RunStoreErrorCode.AlreadyAnswered, message: expect.stringContaining('already answered') });

    const { result } = await finished(run);
    expect(result.text).toBe(`lead: city ${won[0]}`);
    const history = (await loadSnapshot(cluster.resources, run.id, ASKER))?.context.messages ?? [];
    expect(history.filter((m) => m.role === 'toolResult').map(textOf)).toEqual([won[0]]);
  });
});
