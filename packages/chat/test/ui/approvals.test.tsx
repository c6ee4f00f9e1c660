/**
 * Approvals in the terminal: in smart mode (the default) read-only tools run without asking and
 * the others ask; "always for this session" trusts the tool, so its next calls run without asking;
 * `/approve on` asks again for a trusted tool (and offers no "always"), `/approve off` asks for
 * nothing; "deny" refuses the call (and the tool for the rest of the session, as the agent's
 * `deny_never` does).
 */
import { Agent, type Tool } from '@troupe/core';
import { createScriptedProvider } from '@troupe/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { agentChatSession } from '../../src/index.js';
import { KEY, renderChat } from '../support/render-chat.js';
import { testTools } from '../support/test-tools.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('approvals', () => {
  it('asks for writing tools only, trusts a tool for the session, and asks again with /approve on', async () => {
    const { tools, saved } = testTools();
    const provider = createScriptedProvider([
      { toolCalls: [{ name: 'look' }] },
      { toolCalls: [{ name: 'save', arguments: { path: 'a.txt' } }] },
      { toolCalls: [{ name: 'save', arguments: { path: 'b.txt' } }] },
      { text: 'Saved both.' },
      { toolCalls: [{ name: 'save', arguments: { path: 'c.txt' } }] },
      { text: 'Saved c.' },
      { toolCalls: [{ name: 'save', arguments: { path: 'd.txt' } }] },
      { text: 'Saved d.' },
      { toolCalls: [{ name: 'save', arguments: { path: 'e.txt' } }] },
      { text: 'Could not save e.' },
    ]);
    const agent = new Agent({ provider, model: 'scripted:test', tools });
    const chat = renderChat(agentChatSession(agent, { tools, model: 'scripted:test' }));
    cleanup = () => {
      chat.unmount();
      agent.dispose();
    };

    await chat.type(...'save things', KEY.enter);
    const asked = await chat.shows('Allow save a.txt?');
    // The read-only tool ran without asking.
    expect(asked).toContain('look() [ok]');
    expect(asked).toContain('[y] allow once   [a] always (this session)   [n] deny (for the session)   [s] deny and stop');
    expect(saved).toEqual([]);
    await chat.type('a');
    // b.txt is saved without asking: save is trusted for the session.
    await chat.shows('Saved both.');
    expect(saved).toEqual(['a.txt', 'b.txt']);
    expect(chat.frame()).not.toContain('Allow save');

    await chat.type(...'/approve on', KEY.enter);
    await chat.shows('approve on');
    await chat.type(...'and c', KEY.enter);
    const again = await chat.shows('Allow save c.txt?');
    expect(again).toContain('[y] allow once   [n] deny (for the session)   [s] deny and stop');
    expect(again).not.toContain('[a] always');
    await chat.type('y');
    await chat.shows('Saved c.');
    expect(saved).toEqual(['a.txt', 'b.txt', 'c.txt']);

    await chat.type(...'/approve off', KEY.enter);
    await chat.shows('approve off');
    await chat.type(...'and d', KEY.enter);
    await chat.shows('Saved d.');
    expect(saved).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);

    await chat.type(...'/approve on', KEY.enter);
    await chat.shows('approve on');
    await chat.type(...'and e', KEY.enter);
    await chat.shows('Allow save e.txt?');
    await chat.type('n');
    await chat.shows('Could not save e.');
    expect(saved).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    expect(chat.frame()).toMatch(/save\(e\.txt\) \[error\](\n│)? Permission to use save has been permanently denied/);
  });

  it('answers an ask_user question in the input line', async () => {
    const askUser: Tool = {
      name: 'ask_user',
      description: 'Asks the user.',
      parameters: { type: 'object', properties: { question: { type: 'string' } } },
      readOnly: true,
      execute: (args) => ({ content: String(args['question']), control: { type: 'suspend', question: String(args['question']) } }),
    };
    const provider = createScriptedProvider([
      { toolCalls: [{ name: 'ask_user', arguments: { question: 'Which colour?' } }] },
      { text: 'You chose {{lastToolResult}}.' },
    ]);
    const agent = new Agent({ provider, model: 'scripted:test', tools: [askUser] });
    const chat = renderChat(agentChatSession(agent, { tools: [askUser], model: 'scripted:test' }));
    cleanup = () => {
      chat.unmount();
      agent.dispose();
    };
    await chat.type(...'pick one', KEY.enter);
    const asked = await chat.shows('? Which colour?  (type the answer, Enter sends)');
    expect(asked).toContain('answer › ');
    await chat.type(...'teal', KEY.enter);
    await chat.shows(/You chose .*teal.*\./);
  });
});
