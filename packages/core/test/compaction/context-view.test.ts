/**
 * The compacted view is part of the agent's state, not a rewrite of its history: it refers to
 * kept history messages by index (only new messages — a summary, a marker — are stored whole),
 * it is in the snapshot and in checkpoint heads (which keep appending), and a restored agent sends
 * exactly the view the original would have sent. An abort during a summary call ends the run with
 * nothing compacted; a snapshot taken while compacting resumes by compacting again.
 */
import { describe, expect, it } from 'vitest';
import {
  Agent,
  dropOldestTurns,
  SUMMARY_HEADER,
  summarizeOlderTurns,
  withHistory,
  type AgentCheckpoint,
  type AgentOptions,
  type Message,
  type Tool,
} from '../../src/index.js';
import { createScriptedProvider, flushPromises, SimulatedClock, type ScriptStep } from '../../src/testing.js';
import { nextEvent } from '../support.js';

const blob: Tool = {
  name: 'blob',
  description: 'Returns a long text.',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  execute: () => ({ content: 'z'.repeat(2800) }),
};
const tool: ScriptStep = { toolCalls: [{ name: 'blob' }] };
const script: ScriptStep[] = [tool, tool, tool, tool, tool, { text: 'first answer' }, { text: 'second answer' }];
const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function options(provider: AgentOptions['provider'], extra: Partial<AgentOptions> = {}): AgentOptions {
  return { provider, model: 'main', contextWindow: 4000, tools: [blob], compaction: { strategies: [dropOldestTurns()] }, ...extra };
}

describe('the compacted view', () => {
  it('refers to kept history messages by index and is restored with the agent, which sends the same view', async () => {
    const clock = new SimulatedClock();
    const provider = createScriptedProvider(script, { inputFromSize: true });
    const agent = new Agent(options(provider, { clock }));
    const checkpoints: AgentCheckpoint[] = [];
    agent.events$.subscribe((e) => e.type === 'turn_end' && checkpoints.push(agent.checkpoint(checkpoints.at(-1)?.mark)));
    await agent.prompt('go');
    checkpoints.push(agent.checkpoint(checkpoints.at(-1)?.mark));
    const view = agent.snapshot().context.view;
    expect(view).toBeDefined();
    expect(view?.head.filter((item) => typeof item !== 'number')).toHaveLength(1); // the marker; the task is index 0
    expect(view?.head[0]).toBe(0);
    expect(checkpoints.slice(1).every((c) => c.from > 0)).toBe(true);
    const history: Message[] = [];
    for (const c of checkpoints) history.splice(c.from, history.length - c.from, ...c.added);
    expect(history).toEqual(agent.messages);
    expect(withHistory(checkpoints.at(-1)!.head, history)).toEqual(agent.snapshot());

    const restoredProvider = createScriptedProvider(script, { startAt: 6 });
    const twin = Agent.restore(roundTrip(agent.snapshot()), options(restoredProvider, { clock }));
    expect(twin.contextMessages).toEqual(agent.contextMessages);
    await twin.prompt('again');
    await agent.prompt('again');
    expect(restoredProvider.requests[0]?.messages).toEqual(provider.requests[6]?.messages);
    expect(restoredProvider.requests[0]?.messages.slice(0, -1)).toEqual(twin.contextMessages.slice(0, -2));
    expect(restoredProvider.requests[0]?.messages).toHaveLength(10);
    expect(twin.messages).toHaveLength(14);
  });

  it('resumes a snapshot taken while a summary was being written by compacting again', async () => {
    const clock = new SimulatedClock();
    const slow = createScriptedProvider([{ text: 'never finished', delayMs: 10_000 }], { clock });
    const agent = new Agent(
      options(createScriptedProvider(script, { inputFromSize: true, clock }), {
        clock,
        compaction: { strategies: [summarizeOlderTurns({ summarizer: { provider: slow, model: 's' } })] },
      }),
    );
    const done = agent.prompt('go');
    await flushPromises();
    await clock.advance(0);
    expect(agent.stateValue).toEqual({ thinking: 'compacting' });
    const snapshot = roundTrip(agent.snapshot());
    agent.abort();
    expect((await done).stopReason).toBe('aborted');
    await clock.advance(10_000);
    expect(agent.snapshot().context.view).toBeUndefined(); // the summary never finished: nothing compacted

    const quick = createScriptedProvider([{ text: 'what happened so far' }]);
    const provider = createScriptedProvider(script, { startAt: 5 });
    const restored = Agent.restore(
      snapshot,
      options(provider, { compaction: { strategies: [summarizeOlderTurns({ summarizer: { provider: quick, model: 's' } })] } }),
    );
    const compacted = nextEvent(restored, 'compaction');
    const result = await restored.result;
    expect((await compacted).strategies).toEqual(['summary']);
    expect(result.text).toBe('first answer');
    expect(provider.requests[0]?.messages[1]).toMatchObject({ role: 'user', content: `${SUMMARY_HEADER}\n\nwhat happened so far` });
  });
});
