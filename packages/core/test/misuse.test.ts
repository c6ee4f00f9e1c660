/**
 * Misuse of the facade (behaviour 14): `prompt()` while a run is active is a typed error (use
 * `steer`/`followUp`); `continue()` on an empty history or after an assistant message is a typed
 * error. Errors carry stable codes and are `TroupeError`s.
 */
import { describe, expect, it } from 'vitest';
import { AgentStateError, ErrorCode, TroupeError } from '../src/index.js';
import { blockingTool, scriptedAgent } from './support.js';

describe('facade misuse', () => {
  it('refuses prompt() while a run is active', async () => {
    const block = blockingTool();
    const agent = scriptedAgent([{ toolCalls: [{ name: 'block' }] }, { text: 'done' }], { tools: [block.tool] });
    const result = agent.prompt('first');
    let thrown: unknown;
    try {
      agent.prompt('second');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AgentStateError);
    expect(thrown).toBeInstanceOf(TroupeError);
    expect(thrown).toMatchObject({ code: ErrorCode.AlreadyRunning, name: 'AgentStateError' });
    expect(String((thrown as Error).message)).toMatch(/steer\(\) or followUp\(\)/);
    await block.firstStarted;
    block.release(block.started[0]!.toolCallId);
    expect((await result).stopReason).toBe('stop');
  });

  it('refuses continue() on an empty history', () => {
    expect(() => scriptedAgent([]).continue()).toThrow(expect.objectContaining({ code: ErrorCode.NoMessages }));
  });

  it('refuses continue() after an assistant message', async () => {
    const agent = scriptedAgent([{ text: 'hello' }]);
    await agent.prompt('hi');
    expect(() => agent.continue()).toThrow(expect.objectContaining({ code: ErrorCode.InvalidContinue }));
  });

  it('allows continue() after an assistant message when a follow-up is queued', async () => {
    const agent = scriptedAgent([{ text: 'hello' }, { text: 'and more' }]);
    await agent.prompt('hi');
    agent.followUp('more please');
    expect((await agent.continue()).text).toBe('and more');
  });
});
