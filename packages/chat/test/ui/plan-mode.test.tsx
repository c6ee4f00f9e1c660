/**
 * Plan mode: Shift+Tab (or /plan) switches to Plan, where the model is offered only read-only
 * tools and its reply is labelled PLAN; switching back to Execute offers every tool again and
 * sends the plan as the next message, which the agent carries out.
 */
import { Agent, textOf } from '@troupe/core';
import { createScriptedProvider } from '@troupe/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentChatSession, PLAN_PREFIX } from '../../src/index.js';
import { KEY, renderChat } from '../support/render-chat.js';
import { testTools } from '../support/test-tools.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('plan mode', () => {
  it('restricts the agent to read-only tools and labels its output, then executes the plan with every tool', async () => {
    const { tools, saved } = testTools();
    const provider = createScriptedProvider([
      { text: '1. Look at the file.\n2. Save the fix to fix.ts.' },
      { text: 'Saving.', toolCalls: [{ name: 'save', arguments: { path: 'fix.ts' } }] },
      { text: 'Done: fix.ts is saved.' },
    ]);
    const agent = new Agent({ provider, model: 'scripted:test', tools, permissions: { mode: 'allow' } });
    const chat = renderChat(agentChatSession(agent, { tools, model: 'scripted:test' }));
    cleanup = () => {
      chat.unmount();
      agent.dispose();
    };

    await chat.type(KEY.shiftTab);
    await chat.shows(/scripted:test · PLAN/);
    expect(chat.frame()).toContain('Plan mode: read-only tools only (look)');
    await chat.type(...'Fix the bug', KEY.enter);
    const planned = await chat.shows('2. Save the fix to fix.ts.');
    expect(planned).toMatch(/┃ PLAN\n┃ +1\. Look at the file\.\n┃ +2\. Save the fix to fix\.ts\./);
    expect(planned).toContain('› Fix the bug');
    expect(provider.requests[0]?.tools.map((t) => t.name)).toEqual(['look']);
    expect(textOf(provider.requests[0]?.messages.at(-1) as never)).toBe(`${PLAN_PREFIX}Fix the bug`);
    await chat.shows(/idle/);

    await chat.type(KEY.shiftTab);
    await chat.shows(/scripted:test · EXECUTE/);
    const done = await chat.shows('Done: fix.ts is saved.');
    expect(provider.requests[1]?.tools.map((t) => t.name)).toEqual(['look', 'save']);
    const followUp = textOf(provider.requests[1]?.messages.at(-1) as never);
    expect(followUp).toContain('Carry out this plan');
    expect(followUp).toContain('1. Look at the file.\n2. Save the fix to fix.ts.');
    expect(saved).toEqual(['fix.ts']);
    // The executed reply is not labelled PLAN.
    expect(done.match(/┃ PLAN/g)).toHaveLength(1);
    expect(done).toContain('save(fix.ts) [ok]');
  });

  it('toggles with /plan too', async () => {
    const { tools } = testTools();
    const agent = new Agent({ provider: createScriptedProvider([]), model: 'scripted:test', tools });
    const session = agentChatSession(agent, { tools, model: 'scripted:test' });
    const chat = renderChat(session);
    cleanup = () => {
      chat.unmount();
      agent.dispose();
    };
    await chat.type(...'/plan', KEY.enter);
    await chat.shows(/· PLAN ·/);
    expect(session.toolNames()).toEqual(['look']);
    await chat.type(...'/plan', KEY.enter);
    await chat.shows(/· EXECUTE ·/);
    await vi.waitFor(() => expect(session.toolNames()).toEqual(['look', 'save']));
  });
});
