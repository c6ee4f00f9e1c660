/**
 * Snapshots (behaviour 12): `snapshot()` is plain, versioned JSON; restoring it with
 * `Agent.restore` in a fresh agent (a new provider going on from the same script position) ends
 * with the same history as an uninterrupted run, whether it was taken at any turn boundary or
 * while waiting for a permission decision. A frozen v1 fixture still restores; a wrong
 * schemaVersion is rejected. XState's restore gaps are covered: a retry back-off delay is re-armed
 * for the time left, and effects that re-run after restore (a tool batch of idempotent calls, a half-streamed model
 * call) run once, leaving exactly one result per call.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Agent, exponentialBackoff, SNAPSHOT_SCHEMA_VERSION, type AgentOptions, type AgentSnapshot, type Message, type TroupeError } from '../src/index.js';
import { createScriptedProvider, flushPromises, SimulatedClock, type ScriptStep } from '../src/testing.js';
import { ALLOW, blockingTool, echoTool, nextEvent, record, stripTimestamps } from './support.js';
import { countingTool, eventsOf, resultsOf } from './support-extra.js';

const echo = (text: string): ScriptStep => ({ toolCalls: [{ name: 'echo', arguments: { text } }], usage: { input: 10, output: 5 }, cost: 0.001 });
/** Four tool turns, then text. The frozen fixture was taken from this script at the end of turn 2. */
const script: ScriptStep[] = [echo('one'), echo('two'), echo('three'), echo('four'), { text: 'finished', usage: { input: 10, output: 5 }, cost: 0.001 }];
const tools = [echoTool()];

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

async function uninterrupted(steps: ScriptStep[], options: Partial<AgentOptions> = {}): Promise<Message[]> {
  const agent = new Agent({ provider: createScriptedProvider(steps), model: 'test', permissions: ALLOW, tools, ...options });
  await agent.prompt('count to four with the echo tool');
  return stripTimestamps([...agent.messages]);
}

function restoreError(snapshot: unknown): TroupeError {
  try {
    Agent.restore(snapshot, { provider: createScriptedProvider(script), model: 'test', tools });
  } catch (error) {
    return error as TroupeError;
  }
  throw new Error('expected restore to throw');
}

describe('snapshot format', () => {
  it('is plain JSON with schemaVersion 1 in every state', async () => {
    const agent = new Agent({ provider: createScriptedProvider(script), model: 'test', permissions: ALLOW, tools });
    const taken: AgentSnapshot[] = [agent.snapshot()];
    agent.events$.subscribe((e) => e.type === 'turn_end' && taken.push(agent.snapshot()));
    await agent.prompt('go');
    taken.push(agent.snapshot());
    expect(SNAPSHOT_SCHEMA_VERSION).toBe(1);
    expect(taken).toHaveLength(7);
    for (const snapshot of taken) {
      expect(snapshot.schemaVersion).toBe(SNAPSHOT_SCHEMA_VERSION);
      expect(roundTrip(snapshot)).toEqual(snapshot);
      expect('outbox' in snapshot.context).toBe(false);
    }
    expect(taken[0]?.state).toBe('idle');
    expect(taken.at(-1)?.state).toBe('done');
  });

  it('carries the history in context.messages, not the count the statechart keeps of it', async () => {
    const fixture = JSON.parse(readFileSync(new URL('./fixtures/snapshot-v1.json', import.meta.url), 'utf8')) as AgentSnapshot;
    const agent = Agent.restore(fixture, { provider: createScriptedProvider(script, { startAt: 2 }), model: 'test', tools, clock: new SimulatedClock() });
    const restored = agent.snapshot();
    expect(Object.keys(restored.context).sort()).toEqual([...Object.keys(fixture.context), 'sessionId'].sort());
    expect(restored.context.messages).toEqual(fixture.context.messages);
    expect(agent.messages).toEqual(fixture.context.messages);
    agent.dispose();
  });

  it('rejects a snapshot of another schemaVersion or shape with invalid_snapshot', () => {
    const fixture = JSON.parse(readFileSync(new URL('./fixtures/snapshot-v1.json', import.meta.url), 'utf8')) as AgentSnapshot;
    expect(restoreError({ ...fixture, schemaVersion: 2 }).code).toBe('invalid_snapshot');
    expect(restoreError({ ...fixture, schemaVersion: undefined }).code).toBe('invalid_snapshot');
    expect(restoreError({ ...fixture, state: 'sleeping' }).code).toBe('invalid_snapshot');
    expect(restoreError({ ...fixture, state: { thinking: 'dozing' } }).message).toMatch(/unknown state \{"thinking":"dozing"\}/);
    expect(restoreError('not a snapshot').code).toBe('invalid_snapshot');
  });

  it('still restores the frozen v1 fixture and finishes its run', async () => {
    const fixture: unknown = JSON.parse(readFileSync(new URL('./fixtures/snapshot-v1.json', import.meta.url), 'utf8'));
    const provider = createScriptedProvider(script, { startAt: 2 });
    const agent = Agent.restore(fixture, { provider, model: 'test', tools, clock: new SimulatedClock() });
    const events = record(agent);
    expect(agent.state).toBe('thinking');
    const result = await agent.result;
    expect(result.stopReason).toBe('stop');
    expect(result.runId).toBe('run_loyw3v2800001yj0aa8');
    expect(result.turns).toBe(5);
    expect(result.usage.totalTokens).toBe(75);
    expect(result.usage.cost.total).toBeCloseTo(0.005, 10);
    expect(stripTimestamps(result.messages)).toEqual(await uninterrupted(script));
    expect(provider.requests).toHaveLength(3);
    expect(events[0]?.seq).toBe(28);
  });
});

describe('restore at a turn boundary', () => {
  it.each([1, 2, 3, 4])('split after turn %i ends like the uninterrupted run', async (k) => {
    const expected = await uninterrupted(script);
    const provider = createScriptedProvider(script);
    const original = new Agent({ provider, model: 'test', permissions: ALLOW, tools });
    let taken: { snapshot: AgentSnapshot; position: number } | undefined;
    original.events$.subscribe((e) => {
      if (e.type === 'turn_end' && e.turn === k) taken = { snapshot: original.snapshot(), position: provider.position };
    });
    await original.prompt('count to four with the echo tool');
    if (taken === undefined) throw new Error(`no turn_end ${k}`);
    expect(taken.position).toBe(k);

    const resumed = createScriptedProvider(script, { startAt: taken.position });
    const restored = Agent.restore(roundTrip(taken.snapshot), { provider: resumed, model: 'test', tools });
    expect(restored.isRunning).toBe(true);
    const result = await restored.result;
    expect(result.stopReason).toBe('stop');
    expect(result.turns).toBe(5);
    expect(stripTimestamps([...restored.messages])).toEqual(expected);
    expect(stripTimestamps(result.messages)).toEqual(expected);
    expect(resumed.requests).toHaveLength(script.length - k);
  });
});

describe('restore while waiting for a permission decision', () => {
  it('is decided on the restored agent and ends like the uninterrupted run', async () => {
    const steps = [echo('one'), { text: 'finished' }];
    // echo is read-only: only a per-tool `ask` asks about it.
    const permissions = { mode: 'ask', tools: { echo: 'ask' } } as const;
    const baseline = new Agent({ provider: createScriptedProvider(steps), model: 'test', tools, permissions });
    const asked = nextEvent(baseline, 'permission_request');
    const done = baseline.prompt('go');
    baseline.approve((await asked).toolCallId, 'allow_once');
    await done;

    const provider = createScriptedProvider(steps);
    const original = new Agent({ provider, model: 'test', tools, permissions });
    const request = nextEvent(original, 'permission_request');
    void original.prompt('go');
    await request;
    expect(original.state).toBe('waiting_user');
    const snapshot = roundTrip(original.snapshot());
    original.dispose();

    const restored = Agent.restore(snapshot, { provider: createScriptedProvider(steps, { startAt: provider.position }), model: 'test', tools, permissions });
    expect(restored.state).toBe('waiting_user');
    expect(restored.pending).toMatchObject({ kind: 'permission', callId: 'call_1_1', toolName: 'echo' });
    restored.approve('call_1_1', 'allow_once');
    const result = await restored.result;
    expect(result.stopReason).toBe('stop');
    expect(stripTimestamps([...restored.messages])).toEqual(stripTimestamps([...baseline.messages]));
  });
});

describe('XState restore gaps', () => {
  const retrySteps: ScriptStep[] = [{ error: { kind: 'network' } }, { text: 'ok' }];
  const retry = exponentialBackoff({ baseDelayMs: 1000, random: () => 0.5 });

  async function snapshotInBackoff() {
    const clock = new SimulatedClock();
    const provider = createScriptedProvider(retrySteps);
    const agent = new Agent({ provider, model: 'test', clock, retry });
    const retried = nextEvent(agent, 'retry');
    void agent.prompt('go');
    expect((await retried).delayMs).toBe(1000);
    await clock.advance(400);
    expect(agent.stateValue).toEqual({ thinking: 'retrying' });
    const snapshot = roundTrip(agent.snapshot());
    agent.dispose();
    return { snapshot, at: clock.now(), position: provider.position };
  }

  it('re-arms a retry back-off for the time left after restore', async () => {
    const { snapshot, at, position } = await snapshotInBackoff();
    const clock = new SimulatedClock(at);
    const provider = createScriptedProvider(retrySteps, { startAt: position });
    const restored = Agent.restore(snapshot, { provider, model: 'test', clock, retry });
    expect(restored.stateValue).toEqual({ thinking: 'retrying' });
    await flushPromises();
    expect(provider.requests).toHaveLength(0);
    await clock.advance(599);
    expect(provider.requests).toHaveLength(0);
    await clock.advance(1);
    expect(provider.requests).toHaveLength(1);
    const result = await restored.result;
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('ok');
  });

  it('retries at once when restored after the back-off would have ended', async () => {
    const { snapshot, at, position } = await snapshotInBackoff();
    const clock = new SimulatedClock(at + 60_000);
    const provider = createScriptedProvider(retrySteps, { startAt: position });
    const restored = Agent.restore(snapshot, { provider, model: 'test', clock, retry });
    await clock.advance(0);
    expect(provider.requests).toHaveLength(1);
    expect((await restored.result).stopReason).toBe('stop');
  });

  // Tools safe to repeat (idempotent) run again; see tool-fencing.test.ts for the others.
  it('re-runs a tool batch of idempotent calls that was executing, leaving one result per call', async () => {
    const steps: ScriptStep[] = [{ toolCalls: [{ name: 'block' }, { name: 'block' }] }, { text: 'done' }];
    const expected = await uninterrupted(steps, { tools: [countingTool('block').tool] });
    const block = blockingTool('block');
    const provider = createScriptedProvider(steps);
    const original = new Agent({ provider, model: 'test', permissions: ALLOW, tools: [block.tool] });
    void original.prompt('count to four with the echo tool');
    await block.firstStarted;
    expect(original.state).toBe('tool_executing');
    expect(block.started).toHaveLength(2);
    const snapshot = roundTrip(original.snapshot());
    original.dispose();

    const again = countingTool('block');
    const restored = Agent.restore(snapshot, {
      provider: createScriptedProvider(steps, { startAt: provider.position }),
      model: 'test',
      permissions: ALLOW,
      tools: [{ ...again.tool, idempotent: true }],
    });
    const result = await restored.result;
    expect(result.stopReason).toBe('stop');
    expect(again.calls).toEqual(['call_1_1', 'call_1_2']);
    expect(resultsOf(restored.messages).map(([id]) => id)).toEqual(['call_1_1', 'call_1_2']);
    expect(stripTimestamps([...restored.messages])).toEqual(expected);
  });

  it('re-runs only the idempotent calls of a batch that had not settled before the snapshot', async () => {
    const steps: ScriptStep[] = [{ toolCalls: [{ name: 'missing' }, { name: 'block' }] }, { text: 'done' }];
    const permissions = { mode: 'ask' } as const;
    const block = blockingTool('block');
    const provider = createScriptedProvider(steps);
    const original = new Agent({ provider, model: 'test', tools: [block.tool], permissions });
    const asked = nextEvent(original, 'permission_request');
    void original.prompt('go');
    original.approve((await asked).toolCallId, 'allow_once');
    await block.firstStarted;
    expect(original.state).toBe('tool_executing');
    const snapshot = roundTrip(original.snapshot());
    original.dispose();

    const again = countingTool('block');
    const restored = Agent.restore(snapshot, {
      provider: createScriptedProvider(steps, { startAt: provider.position }),
      model: 'test',
      tools: [{ ...again.tool, idempotent: true }],
      permissions,
    });
    const result = await restored.result;
    expect(result.stopReason).toBe('stop');
    expect(again.calls).toEqual(['call_1_2']);
    const results = resultsOf(restored.messages);
    expect(results.map(([id, , isError]) => [id, isError])).toEqual([
      ['call_1_1', true],
      ['call_1_2', false],
    ]);
    expect(results[0]?.[1]).toContain('unknown tool "missing"');
  });

  it('re-issues a half-streamed model call exactly once', async () => {
    const expected = await uninterrupted(script);
    const provider = createScriptedProvider(script, { chunkSize: 2 });
    const original = new Agent({ provider, model: 'test', permissions: ALLOW, tools });
    let turn = 0;
    let taken: { snapshot: AgentSnapshot; position: number } | undefined;
    original.events$.subscribe((e) => {
      if (e.type === 'turn_start') turn = e.turn;
      if (e.type === 'message_update' && turn === 3 && taken === undefined) taken = { snapshot: original.snapshot(), position: provider.position };
    });
    await original.prompt('count to four with the echo tool');
    if (taken === undefined) throw new Error('no mid-stream snapshot');
    expect(taken.snapshot.state).toEqual({ thinking: 'streaming' });

    // The step being streamed was consumed already: the new provider plays it again.
    const resumed = createScriptedProvider(script, { startAt: taken.position - 1, chunkSize: 2 });
    const restored = Agent.restore(roundTrip(taken.snapshot), { provider: resumed, model: 'test', tools });
    const events = record(restored);
    const result = await restored.result;
    expect(result.stopReason).toBe('stop');
    expect(resumed.requests).toHaveLength(3);
    expect(eventsOf(events, 'message_start').filter((e) => e.role === 'assistant')).toHaveLength(3);
    expect(stripTimestamps([...restored.messages])).toEqual(expected);
    expect(restored.messages.filter((m) => m.role === 'assistant')).toHaveLength(5);
  });
});
