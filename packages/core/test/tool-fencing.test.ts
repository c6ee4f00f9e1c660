/**
 * Calls that are not safe to run twice (tools neither `readOnly` nor `idempotent`) are fenced:
 * - an agent restored from a snapshot taken while its batch ran does not run them again: each gets
 *   `INTERRUPTED_BY_RESTORE` as its result (it may have run), while read-only and idempotent calls
 *   of the same batch run again, and the model goes on from there;
 * - given `checkpointed` (its host's "my state is stored"), an agent starts such a call only once
 *   it resolves, and the state it stores then is `tool_executing` with the call in its batch: a
 *   restore never misses a call that may have run. Batches of calls safe to repeat do not wait.
 *   Such a call that finishes while its batch goes on is kept in the stored state at once, so a
 *   restore gives it its real result rather than the interrupted one.
 */
import { describe, expect, it } from 'vitest';
import { Agent, INTERRUPTED_BY_RESTORE, type AgentSnapshot, type Tool } from '../src/index.js';
import { createScriptedProvider, flushPromises, type ScriptStep } from '../src/testing.js';
import { ALLOW, blockingTool, latch } from './support.js';
import { countingTool, resultsOf } from './support-extra.js';

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** One batch calling `effect` (a side effect), `look` (read-only) and `put` (idempotent), then text. */
const steps: ScriptStep[] = [{ toolCalls: [{ name: 'effect' }, { name: 'look' }, { name: 'put' }] }, { text: 'done' }];

describe('a batch restored while it ran', () => {
  it('gives calls not safe to repeat an interrupted result and runs the read-only and idempotent ones again', async () => {
    const effect = blockingTool('effect');
    const provider = createScriptedProvider(steps);
    const original = new Agent({
      provider,
      model: 'test',
      permissions: ALLOW,
      tools: [effect.tool, { ...blockingTool('look').tool, readOnly: true }, { ...blockingTool('put').tool, idempotent: true }],
    });
    void original.prompt('go');
    await effect.firstStarted;
    expect(original.state).toBe('tool_executing');
    const snapshot = roundTrip(original.snapshot());
    original.dispose();

    const again = { effect: countingTool('effect'), look: countingTool('look'), put: countingTool('put') };
    const restored = Agent.restore(snapshot, {
      provider: createScriptedProvider(steps, { startAt: provider.position }),
      model: 'test',
      permissions: ALLOW,
      tools: [again.effect.tool, { ...again.look.tool, readOnly: true }, { ...again.put.tool, idempotent: true }],
    });
    const result = await restored.result;
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('done');
    expect(again.effect.calls).toEqual([]);
    expect(again.look.calls).toEqual(['call_1_2']);
    expect(again.put.calls).toEqual(['call_1_3']);
    expect(resultsOf(restored.messages)).toEqual([
      ['call_1_1', INTERRUPTED_BY_RESTORE, true],
      ['call_1_2', 'look done', false],
      ['call_1_3', 'put done', false],
    ]);
  });
});

describe('an agent whose host says when its state is stored (checkpointed)', () => {
  it('starts a call not safe to repeat only once its tool_executing state is stored', async () => {
    const effect = countingTool('effect');
    const stored = latch();
    const taken: AgentSnapshot[] = [];
    let agent: Agent | undefined;
    const checkpointed = (): Promise<void> => {
      if (agent !== undefined) taken.push(roundTrip(agent.snapshot()));
      return stored.promise;
    };
    agent = new Agent({
      provider: createScriptedProvider([{ toolCalls: [{ name: 'effect' }] }, { text: 'done' }]),
      model: 'test',
      permissions: ALLOW,
      tools: [effect.tool],
      checkpointed,
    });
    const result = agent.prompt('go');
    await flushPromises();
    expect(agent.state).toBe('tool_executing');
    expect(effect.calls).toEqual([]);
    expect(taken.map((s) => [s.state, s.context.run?.batch?.calls.map((c) => c.id)])).toEqual([['tool_executing', ['call_1_1']]]);

    stored.resolve();
    expect((await result).text).toBe('done');
    expect(effect.calls).toEqual(['call_1_1']);
  });

  it('does not wait for it when every call of the batch is safe to repeat', async () => {
    const look: Tool = { ...countingTool('look').tool, readOnly: true };
    const put: Tool = { ...countingTool('put').tool, idempotent: true };
    let asked = 0;
    const checkpointed = (): Promise<void> => {
      asked++;
      return new Promise<void>(() => undefined);
    };
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'look' }, { name: 'put' }] }, { text: 'done' }]);
    const agent = new Agent({ provider, model: 'test', permissions: ALLOW, tools: [look, put], checkpointed });
    expect((await agent.prompt('go')).text).toBe('done');
    expect(asked).toBe(0);
  });

  it('settles a batch aborted while it waits without starting its calls', async () => {
    const effect = countingTool('effect');
    const stored = latch();
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'effect' }] }, { text: 'done' }]);
    const agent = new Agent({ provider, model: 'test', permissions: ALLOW, tools: [effect.tool], checkpointed: () => stored.promise });
    const result = agent.prompt('go');
    await flushPromises();
    expect(agent.state).toBe('tool_executing');
    agent.abort();
    expect((await result).stopReason).toBe('aborted');
    stored.resolve();
    await flushPromises();
    expect(effect.calls).toEqual([]);
  });
});

describe('a call not safe to repeat that finished while its batch went on', () => {
  for (const toolExecution of [{ mode: 'sequential' }, { mode: 'parallel' }] as const) {
    it(`keeps its real result through a restore (${toolExecution.mode})`, async () => {
      const first = countingTool('first');
      const second = blockingTool('second');
      const batchSteps: ScriptStep[] = [{ toolCalls: [{ name: 'first' }, { name: 'second' }] }, { text: 'done' }];
      const provider = createScriptedProvider(batchSteps);
      const stored: AgentSnapshot[] = [];
      let agent: Agent | undefined;
      // The host's store: the state as it was when the agent said it must be stored.
      const checkpointed = (): Promise<void> => {
        if (agent !== undefined) stored.push(roundTrip(agent.snapshot()));
        return Promise.resolve();
      };
      agent = new Agent({ provider, model: 'test', permissions: ALLOW, tools: [first.tool, second.tool], toolExecution, checkpointed });
      void agent.prompt('go');
      await second.firstStarted;
      expect(first.calls).toEqual(['call_1_1']);
      const latest = stored.at(-1) as AgentSnapshot;
      expect(Object.keys(latest.context.run?.batch?.results ?? {})).toEqual(['call_1_1']);
      agent.dispose();

      // The process stops here: restored from what was stored, `first` keeps its result, `second` is interrupted.
      const again = { first: countingTool('first'), second: countingTool('second') };
      const restored = Agent.restore(latest, {
        provider: createScriptedProvider(batchSteps, { startAt: provider.position }),
        model: 'test',
        permissions: ALLOW,
        tools: [again.first.tool, again.second.tool],
      });
      expect((await restored.result).text).toBe('done');
      expect([again.first.calls, again.second.calls]).toEqual([[], []]);
      expect(resultsOf(restored.messages)).toEqual([
        ['call_1_1', 'first done', false],
        ['call_1_2', INTERRUPTED_BY_RESTORE, true],
      ]);
    });
  }

  it('is not kept apart when it is the last of its batch, or safe to repeat', async () => {
    const effect = countingTool('effect');
    const look: Tool = { ...countingTool('look').tool, readOnly: true };
    const provider = createScriptedProvider([{ toolCalls: [{ name: 'look' }, { name: 'effect' }] }, { text: 'done' }]);
    let asked = 0;
    const checkpointed = (): Promise<void> => {
      asked++;
      return Promise.resolve();
    };
    const agent = new Agent({ provider, model: 'test', permissions: ALLOW, tools: [look, effect.tool], toolExecution: { mode: 'sequential' }, checkpointed });
    expect((await agent.prompt('go')).text).toBe('done');
    // Once before the batch starts; `look` is safe to repeat and `effect` ends the batch.
    expect(asked).toBe(1);
  });
});
