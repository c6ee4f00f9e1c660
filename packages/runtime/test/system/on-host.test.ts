/**
 * `onHost` of the in-process transport: whoever hosts a conversation is handed each actor as it
 * is hosted (its delegates too), before its run starts, so it can reconfigure the agent between
 * runs — here the entry's model, switched for its next run while its history stays.
 */
import { createScriptedProvider } from '@troupe/core/testing';
import { parseAgentPath, parseRunId, type AgentResult } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createInProcessTransport, createMemoryRunStore, graphActorFactory, type HostedActor } from '../../src/index.js';
import { delegate, testGraph } from '../../src/testing.js';

describe('onHost', () => {
  it('hands over each hosted actor before its run, so its model can change between runs', async () => {
    const graph = testGraph({
      lead: { delegates: ['helper'], script: [{ toolCalls: [delegate('helper', 'do it')] }, { text: 'lead done' }, { text: 'lead again' }] },
      helper: { script: [{ text: 'helped' }] },
    });
    const store = createMemoryRunStore();
    const hosted: HostedActor[] = [];
    const transport = createInProcessTransport({
      store,
      factory: graphActorFactory(graph, { store, sleep: () => Promise.resolve() }),
      onHost: (actor) => {
        // Before its run: the agent has not started.
        expect(actor.agent.isRunning).toBe(false);
        hosted.push(actor);
      },
    });
    const runId = parseRunId('run_onhost');
    const lead = parseAgentPath('lead');
    // Delegations record their children in the run's record.
    await store.createRun({ id: runId, entry: 'lead', input: 'go', sessionId: 'ses_onhost', status: 'running', startedAt: 0 });
    await transport.spawn({ runId, path: lead, agent: 'lead', input: 'go', depth: 0 });
    const first = await transport.result(runId, lead);
    expect(first.text).toBe('lead done');
    expect(JSON.stringify(first.messages)).toContain('helped');
    expect(hosted.map((actor) => actor.request.path)).toEqual(['lead', 'lead/helper#1']);

    const agent = hosted[0]?.agent;
    if (agent === undefined) throw new Error('lead was not handed over');
    agent.configure({ provider: createScriptedProvider([{ text: 'from the other model' }]), model: 'other' });
    const next = new Promise<AgentResult>((resolve) => {
      const sub = transport.events(runId).subscribe((event) => {
        if (event.type === 'agent_end' && event.agentPath === lead) {
          sub.unsubscribe();
          resolve(event.result);
        }
      });
    });
    await transport.control(runId, lead, { type: 'prompt', input: 'and now?' });
    const result = await next;
    expect(result.text).toBe('from the other model');
    // One conversation: the first run's messages are still there.
    expect(agent.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['go', 'and now?']);
    expect(agent.modelSettings.model).toBe('other');
    await transport.close();
  });
});
