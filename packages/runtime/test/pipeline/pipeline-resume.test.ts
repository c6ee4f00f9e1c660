/**
 * A pipeline run survives its process: with the file run store, a runtime that is not the one
 * that started it (a fresh process in all but pid) resumes a pipeline whose step waits for a user.
 * Ended steps give their recorded outputs without running again (a JSON step its final, accepted
 * value; a failed `continueOnError` step its error), waiting step actors (map items too) are
 * restored and answered, later steps run on the same rendered inputs, and the store records every
 * step actor under the pipeline's root.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAgentPath, type AgentEvent, type RunId } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createFileRunStore, createRuntime, type GraphConfig } from '../../src/index.js';
import { testGraph, untilWaiting } from '../../src/testing.js';

function briefGraph(): GraphConfig {
  const graph = testGraph({
    // The first reply is not JSON: the step asks again, and only the second reply is its output.
    planner: { script: [{ text: 'Sure! Here are sections.' }, { text: '["intro","body"]' }] },
    writer: {
      tools: ['ask_user'],
      script: [{ toolCalls: [{ name: 'ask_user', arguments: { question: 'Which tone?' } }] }, { text: 'A {{lastToolResult}} draft' }],
    },
    editor: { script: [{ text: 'polished' }] },
  });
  graph.pipelines = {
    brief: {
      name: 'brief',
      steps: [
        { kind: 'agent', id: 'outline', agent: 'planner', input: 'Outline {{input}}', output: { schema: { type: 'array', items: { type: 'string' } } } },
        { kind: 'agent', id: 'draft', agent: 'writer', input: 'Write {{steps.outline.output}} about {{input}}' },
        { kind: 'agent', id: 'edit', agent: 'editor', input: 'Edit: {{steps.draft.output}}' },
      ],
    },
  };
  graph.entry = 'brief';
  return graph;
}

/**
 * Runs `graph` on `input` in a first runtime over a file store until `waiting` actors wait, then
 * closes it (the first process goes away: its actors are gone, only the files remain).
 */
async function leftWaiting(graph: GraphConfig, input: string, waiting = 1): Promise<{ dir: string; runId: RunId }> {
  const dir = mkdtempSync(join(tmpdir(), 'troupe-pipeline-runs-'));
  const first = createRuntime({ graph, store: createFileRunStore(dir) });
  const run = first.run(input);
  await untilWaiting(run, waiting);
  await first.store.flush(run.id);
  await first.close();
  return { dir, runId: run.id };
}

function starts(events: AgentEvent[]): string[] {
  return events.filter((e) => e.type === 'agent_start').map((e) => e.agentPath);
}

describe('resuming a pipeline run', () => {
  it('goes on in a new runtime from the file store, without running ended steps again', async () => {
    const graph = briefGraph();
    const { dir, runId } = await leftWaiting(graph, 'cats');
    const store = createFileRunStore(dir);
    expect(await store.getRun(runId)).toMatchObject({ status: 'waiting', entry: 'brief' });
    expect((await store.children(runId, parseAgentPath('brief'))).map((c) => [c.path, c.agent, c.task, c.outcome?.text])).toEqual([
      ['brief/outline', 'planner', 'Outline cats', '["intro","body"]'],
      ['brief/draft', 'writer', 'Write ["intro","body"] about cats', undefined],
    ]);

    const second = createRuntime({ graph, store });
    const resumed = await second.resume(runId);
    expect(resumed.waiting).toEqual([{ path: 'brief/draft', input: { kind: 'question', callId: 'call_1_1', toolName: 'ask_user', question: 'Which tone?' } }]);
    await resumed.reply('formal');
    const result = await resumed.result;
    expect(result).toMatchObject({
      status: 'done',
      output: 'polished',
      steps: { outline: { output: ['intro', 'body'] }, draft: { output: 'A formal draft' }, edit: { output: 'polished' } },
    });

    // The planner ran only in the first process (twice: its first reply was not JSON).
    const events = await store.readEvents(runId);
    expect(starts(events)).toEqual(['brief/outline', 'brief/outline', 'brief/draft', 'brief/edit']);
    const editPrompt = events.find((e) => e.type === 'message_end' && e.agentPath === 'brief/edit' && e.role === 'user');
    expect(editPrompt).toMatchObject({ message: { content: 'Edit: A formal draft' } });
    expect((await store.children(runId)).map((c) => [c.parent, c.toolCallId, c.task, c.outcome?.stopReason, c.outcome?.text])).toEqual([
      ['brief', 'brief/outline', 'Outline cats', 'stop', '["intro","body"]'],
      ['brief', 'brief/draft', 'Write ["intro","body"] about cats', 'stop', 'A formal draft'],
      ['brief', 'brief/edit', 'Edit: A formal draft', 'stop', 'polished'],
    ]);
    expect(await store.getRun(runId)).toMatchObject({ status: 'done', stopReason: 'stop' });
    await second.close();
  });

  it('re-attaches to every waiting map item and replays a recorded failure', async () => {
    const graph = testGraph({
      broken: { script: [{ error: { kind: 'auth', message: 'no key' } }] },
      writer: {
        tools: ['ask_user'],
        script: [{ toolCalls: [{ name: 'ask_user', arguments: { question: 'Which tone?' } }] }, { text: 'A {{lastToolResult}} draft' }],
      },
    });
    graph.pipelines = {
      flow: {
        name: 'flow',
        steps: [
          { kind: 'agent', id: 'probe', agent: 'broken', input: 'probe', continueOnError: true },
          { kind: 'map', id: 'sections', over: '{{input}}', agent: 'writer', input: 'Write {{item}}' },
        ],
      },
    };
    graph.entry = 'flow';
    const { dir, runId } = await leftWaiting(graph, '["intro","body"]', 2);
    const store = createFileRunStore(dir);
    const second = createRuntime({ graph, store });
    const resumed = await second.resume(runId);
    expect(resumed.waiting.map((w) => w.path).sort()).toEqual(['flow/sections/1', 'flow/sections/2']);
    await resumed.reply('formal', 'flow/sections/1');
    await resumed.reply('plain', 'flow/sections/2');
    const result = await resumed.result;
    expect(result).toMatchObject({
      status: 'done',
      output: ['A formal draft', 'A plain draft'],
      steps: { probe: { output: null, error: { message: 'broken (flow/probe) failed: no key' } } },
    });
    const events = await store.readEvents(runId);
    expect(starts(events).sort()).toEqual(['flow/probe', 'flow/sections/1', 'flow/sections/2']);
    await second.close();
  });
});
