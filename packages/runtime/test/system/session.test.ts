/**
 * Session ids in the runtime (issue 14 §5): a run belongs to a session — the one given in its
 * start options, else a new one — recorded with the run, carried by the `agent_start` of its entry
 * and of every actor under it (delegates and pipeline steps), and kept when the run is resumed.
 */
import { parseRunId, type AgentEvent } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createMemoryRunStore, createRuntime } from '../../src/index.js';
import { delegate, finished, testGraph } from '../../src/testing.js';

function starts(events: readonly AgentEvent[]): Array<[string, string]> {
  return events.flatMap((e) => (e.type === 'agent_start' ? [[e.agentPath as string, e.sessionId] as [string, string]] : []));
}

describe('session ids in runs', () => {
  it('are recorded with the run and carried by the entry and its delegates', async () => {
    const graph = testGraph({
      lead: { delegates: ['helper'], script: [{ toolCalls: [delegate('helper', 'do it')] }, { text: 'done' }] },
      helper: { script: [{ text: 'did it' }] },
    });
    const store = createMemoryRunStore();
    const runtime = createRuntime({ graph, store });
    const run = runtime.run('go', { sessionId: 'ses_chat' });
    const events: AgentEvent[] = [];
    run.events$.subscribe((e) => events.push(e));
    await finished(run);
    expect(starts(events)).toEqual([
      ['lead', 'ses_chat'],
      ['lead/helper#1', 'ses_chat'],
    ]);
    expect(await store.getRun(run.id)).toMatchObject({ sessionId: 'ses_chat' });

    const other = runtime.run('again');
    const more: AgentEvent[] = [];
    other.events$.subscribe((e) => more.push(e));
    await finished(other);
    const session = (await store.getRun(other.id))?.sessionId;
    expect(session).toMatch(/^ses_/);
    expect(session).not.toBe('ses_chat');
    expect(new Set(starts(more).map(([, id]) => id))).toEqual(new Set([session]));
    await runtime.close();
  });

  it('reach the step actors of a pipeline', async () => {
    const graph = testGraph({ writer: { script: [{ text: 'draft' }] }, editor: { script: [{ text: 'final' }] } });
    graph.pipelines = {
      p: {
        name: 'p',
        steps: [
          { kind: 'agent', id: 'write', agent: 'writer', input: '{{input}}' },
          { kind: 'agent', id: 'edit', agent: 'editor', input: '{{steps.write.output}}' },
        ],
      },
    };
    const runtime = createRuntime({ graph });
    const run = runtime.run('topic', { entry: 'p', sessionId: 'ses_pipe' });
    const events: AgentEvent[] = [];
    run.events$.subscribe((e) => events.push(e));
    expect((await run.result).text).toBe('final');
    expect(starts(events)).toEqual([
      ['p/write', 'ses_pipe'],
      ['p/edit', 'ses_pipe'],
    ]);
    await runtime.close();
  });

  it('are kept when a run whose entry never checkpointed is resumed', async () => {
    const graph = testGraph({ lead: { script: [{ text: 'resumed' }] } });
    const store = createMemoryRunStore();
    const id = parseRunId('run_stale');
    await store.createRun({ id, entry: 'lead', input: 'hi', sessionId: 'ses_old', status: 'running', startedAt: 0 });
    const runtime = createRuntime({ graph, store });
    const run = await runtime.resume(id);
    expect((await run.result).text).toBe('resumed');
    expect(starts(await store.readEvents(run.id))).toEqual([['lead', 'ses_old']]);
    await runtime.close();
  });
});
