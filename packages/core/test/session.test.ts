/**
 * The session id (issue 14 §5, the seeds' REQ-188/192): one id spans every run of an agent (its
 * conversation) and is carried by each run's `agent_start`, the hooks' contexts and the tools'
 * contexts; `sessionId` in the options sets it; `reset()` starts a new one; a snapshot keeps it, so
 * a restored agent goes on in the same session, and a frozen v1 snapshot (which has none) restores
 * into the restoring process's session.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Agent, type Tool } from '../src/index.js';
import { createScriptedProvider, SimulatedClock, type ScriptStep } from '../src/testing.js';
import { ALLOW, echoTool, record } from './support.js';
import { eventsOf } from './support-extra.js';

describe('session id', () => {
  it('spans the runs of one agent and reaches agent_start, hooks and tools', async () => {
    const fromTools: string[] = [];
    const tool: Tool = {
      name: 'who',
      description: 'd',
      parameters: { type: 'object' },
      readOnly: true,
      execute: (_args, ctx) => (fromTools.push(ctx.sessionId), { content: 'ok' }),
    };
    const fromHooks: string[] = [];
    const agent = new Agent({
      provider: createScriptedProvider([{ toolCalls: [{ name: 'who' }] }, { text: 'a' }, { text: 'b' }]),
      model: 'm',
      tools: [tool],
      permissions: ALLOW,
      hooks: { onRunStart: ({ sessionId }) => void fromHooks.push(sessionId) },
    });
    const events = record(agent);
    const id = agent.sessionId;
    expect(id).toMatch(/^ses_[a-z0-9]+$/);
    await agent.prompt('one');
    await agent.prompt('two');
    const starts = eventsOf(events, 'agent_start');
    expect(starts.map((e) => e.sessionId)).toEqual([id, id]);
    expect(new Set(starts.map((e) => e.runId)).size).toBe(2);
    expect(fromHooks).toEqual([id, id]);
    expect(fromTools).toEqual([id]);
    agent.reset();
    expect(agent.sessionId).not.toBe(id);
  });

  it('is set by the options and kept by snapshots', async () => {
    const agent = new Agent({ provider: createScriptedProvider([{ text: 'a' }]), model: 'm', sessionId: 'ses_mine' });
    await agent.prompt('hi');
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot())) as unknown;
    const restored = Agent.restore(snapshot, { provider: createScriptedProvider([{ text: 'b' }]), model: 'm', sessionId: 'ses_other' });
    expect(restored.sessionId).toBe('ses_mine');
    const events = record(restored);
    await restored.prompt('again');
    expect(eventsOf(events, 'agent_start')[0]?.sessionId).toBe('ses_mine');
  });

  it('a frozen v1 snapshot without one restores into the options session', async () => {
    const fixture: unknown = JSON.parse(readFileSync(new URL('./fixtures/snapshot-v1.json', import.meta.url), 'utf8'));
    // The fixture's run is at its third model call of the echo script (see snapshot.test.ts).
    const echo = (text: string): ScriptStep => ({ toolCalls: [{ name: 'echo', arguments: { text } }] });
    const provider = createScriptedProvider([echo('three'), echo('four'), { text: 'finished' }]);
    const agent = Agent.restore(fixture, {
      provider,
      model: 'test',
      tools: [echoTool()],
      permissions: ALLOW,
      clock: new SimulatedClock(),
      sessionId: 'ses_resumed',
    });
    expect(agent.sessionId).toBe('ses_resumed');
    expect((await agent.result).text).toBe('finished');
    expect(agent.snapshot().context.sessionId).toBe('ses_resumed');
  });
});
