/**
 * The Agent API between runs (issue 14 §5, the Swink PRD's state mutation, queue and reset calls):
 * `configure` changes the system prompt, model, provider, thinking level, sampling and tools the
 * next run's model calls get; `replaceMessages`/`clearMessages` replace the history the model is
 * sent; `reset` gives back the agent its options make, in a new session. The steering and
 * follow-up queues can be read and cleared at any time; the calls that change the agent throw
 * `already_running` during a run (waiting for a user counts), and reading never does.
 */
import { describe, expect, it } from 'vitest';
import { Agent, AgentStateError, agentMachine, type Message, type RunId } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { ALLOW, blockingTool, echoTool, latch, scriptedAgent, stripTimestamps } from './support.js';

const user = (text: string): Message => ({ role: 'user', content: text, timestamp: 1 });

describe('the Agent API between runs', () => {
  it('configure changes what the next model calls get: system prompt, model, provider, thinking, sampling, tools', async () => {
    const first = createScriptedProvider([{ text: 'one' }]);
    const second = createScriptedProvider([{ text: 'two' }]);
    const agent = new Agent({ provider: first, model: 'a', systemPrompt: 'be brief', tools: [echoTool()], permissions: ALLOW });
    await agent.prompt('hi');
    expect(first.requests[0]).toMatchObject({ model: 'a', systemPrompt: 'be brief' });
    expect(first.requests[0]?.tools.map((t) => t.name)).toEqual(['echo']);

    agent.configure({ provider: second, model: 'b', systemPrompt: 'be thorough', thinking: 'xhigh', temperature: 0.2, topP: 0.9, maxTokens: 100, tools: [] });
    expect(agent.modelSettings).toMatchObject({
      provider: second,
      model: 'b',
      systemPrompt: 'be thorough',
      thinking: 'xhigh',
      temperature: 0.2,
      topP: 0.9,
      maxTokens: 100,
    });
    const result = await agent.prompt('again');
    expect(result.text).toBe('two');
    expect(first.requests).toHaveLength(1);
    expect(second.requests[0]).toMatchObject({
      model: 'b',
      systemPrompt: 'be thorough',
      thinking: 'xhigh',
      temperature: 0.2,
      topP: 0.9,
      maxTokens: 100,
      tools: [],
    });
    // The conversation goes on with the new model: it sees the first exchange.
    expect(second.requests[0]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(result.messages.at(-1)).toMatchObject({ model: 'scripted:b' });
  });

  it('configure leaves what it is not given, and a bad tool list changes nothing', async () => {
    const provider = createScriptedProvider([{ text: 'ok' }]);
    const agent = new Agent({ provider, model: 'a', systemPrompt: 'keep me', tools: [echoTool()] });
    agent.configure({ thinking: 'low' });
    expect(() => agent.configure({ model: 'b', tools: [echoTool(), echoTool()] })).toThrow(expect.objectContaining({ code: 'invalid_tool' }));
    expect(agent.modelSettings).toMatchObject({ model: 'a', systemPrompt: 'keep me', thinking: 'low' });
    await agent.prompt('go');
    expect(provider.requests[0]).toMatchObject({ model: 'a', systemPrompt: 'keep me', thinking: 'low' });
    expect(provider.requests[0]?.tools.map((t) => t.name)).toEqual(['echo']);
  });

  it('replaceMessages and clearMessages replace the history the model is sent', async () => {
    const provider = createScriptedProvider([{ text: 'first' }, { text: 'second' }, { text: 'third' }]);
    const agent = new Agent({ provider, model: 'm' });
    await agent.prompt('one');
    const { mark } = agent.checkpoint();
    const kept: Message[] = [user('earlier'), agent.messages[1]!];
    agent.replaceMessages(kept);
    kept.push(user('not part of it'));
    expect(stripTimestamps(agent.messages)).toEqual(stripTimestamps(kept.slice(0, 2)));
    // A replaced history is checkpointed whole, even where a message happens to sit at the old mark.
    expect(agent.checkpoint(mark)).toMatchObject({ from: 0, added: kept.slice(0, 2) });
    await agent.prompt('two');
    expect(provider.requests[1]?.messages.map((m) => m.content)).toEqual(['earlier', [{ type: 'text', text: 'first' }], 'two']);

    agent.clearMessages();
    expect(agent.messages).toEqual([]);
    await agent.prompt('three');
    expect(provider.requests[2]?.messages.map((m) => m.content)).toEqual(['three']);
  });

  it('reset gives back the agent of its options, in a new session', async () => {
    const provider = createScriptedProvider([{ text: 'a' }, { text: 'b' }]);
    const agent = new Agent({ provider, model: 'm', systemPrompt: 'orig', sessionId: 'ses_first' });
    await agent.prompt('hi');
    agent.configure({ systemPrompt: 'changed' });
    agent.followUp('later');
    agent.reset();
    expect(agent.messages).toEqual([]);
    expect(agent.queued).toEqual({ steering: [], followUps: [] });
    expect(agent.modelSettings.systemPrompt).toBe('orig');
    expect(agent.sessionId).not.toBe('ses_first');
    expect(agent.sessionId).toMatch(/^ses_/);
    expect(agent.state).toBe('idle');
    expect(agent.runId).toBe('');
    await expect(agent.result).rejects.toThrow(AgentStateError);
    const result = await agent.prompt('again');
    expect(provider.requests[1]).toMatchObject({ systemPrompt: 'orig' });
    expect(provider.requests[1]?.messages.map((m) => m.content)).toEqual(['again']);
    expect(result.text).toBe('b');
    agent.reset({ sessionId: 'ses_chosen' });
    expect(agent.sessionId).toBe('ses_chosen');
  });

  it('reads and clears the steering and follow-up queues, during a run too', async () => {
    const blocker = blockingTool('block');
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'block' }] }, { text: 'done' }]);
    const agent = new Agent({ provider, model: 'm', tools: [blocker.tool], permissions: ALLOW });
    agent.followUp('queued before');
    expect(agent.hasQueuedMessages).toBe(true);
    agent.clearQueues('followUps');
    expect(agent.hasQueuedMessages).toBe(false);

    const run = agent.prompt('go');
    await blocker.firstStarted;
    agent.followUp('f1');
    agent.followUp('f2');
    expect(agent.queued.followUps.map((m) => m.content)).toEqual(['f1', 'f2']);
    expect(agent.queued.steering).toEqual([]);
    agent.clearQueues();
    expect(agent.queued).toEqual({ steering: [], followUps: [] });
    blocker.release(blocker.started[0]!.toolCallId);
    const result = await run;
    // The cleared follow-ups never entered: the run ended at the model's reply.
    expect(result.text).toBe('done');
    expect(agent.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['go']);
  });

  it('refuses the calls that change the agent during a run, waiting for a user included', async () => {
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }]);
    const agent = new Agent({ provider, model: 'm', tools: [echoTool({ readOnly: false })] });
    const asked = latch();
    agent.events$.subscribe((e) => e.type === 'permission_request' && asked.resolve());
    const run = agent.prompt('go');
    await asked.promise;
    expect(agent.state).toBe('waiting_user');
    for (const call of [() => agent.configure({ model: 'x' }), () => agent.replaceMessages([]), () => agent.clearMessages(), () => agent.reset()]) {
      expect(call).toThrow(expect.objectContaining({ code: 'already_running', name: 'AgentStateError' }));
    }
    expect(agent.modelSettings.model).toBe('m');
    // Reading is always allowed, and so is clearing a queue.
    expect(agent.queued.steering).toEqual([]);
    agent.clearQueues();
    expect(agent.sessionId).toMatch(/^ses_/);
    agent.approve(agent.pending!.kind === 'permission' ? agent.pending!.callId : '', 'allow_once');
    expect((await run).text).toBe('done');
  });
});

describe('the statechart as XState sees it', () => {
  it('gives a real XState snapshot of the agent machine, at the state the agent is in', async () => {
    const agent = scriptedAgent([{ text: 'hello' }]);
    expect(agent.machineSnapshot.matches('idle')).toBe(true);
    await agent.prompt('hi');
    const snapshot = agent.machineSnapshot;
    expect(snapshot.matches('done')).toBe(true);
    expect(snapshot.machine).toBe(agentMachine);
    expect(snapshot.can({ type: 'PROMPT', at: 0, runId: 'run_x' as RunId, messages: [] })).toBe(true);
    expect(snapshot.context.historyLength).toBe(agent.messages.length);
  });
});
