/**
 * The conversation view streams: each delta of the reply shows as it arrives, with a cursor while
 * the model writes; Esc or Ctrl+C during a turn aborts it and the view says so.
 */
import { Agent } from '@troupe/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentChatSession } from '../../src/index.js';
import { gatedProvider } from '../support/gated-provider.js';
import { KEY, renderChat } from '../support/render-chat.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function chatWithGatedModel() {
  const model = gatedProvider();
  const agent = new Agent({ provider: model.provider, model: 'gated:test', tools: [] });
  const session = agentChatSession(agent, { tools: [], model: 'gated:test', contextWindow: 10_000 });
  const chat = renderChat(session);
  cleanup = () => {
    chat.unmount();
    agent.dispose();
  };
  return { model, chat, agent };
}

describe('streaming', () => {
  it('shows each delta as it arrives, with a cursor until the reply ends', async () => {
    const { model, chat } = chatWithGatedModel();
    await chat.type(...'hello', KEY.enter);
    await chat.shows('› hello');
    await chat.shows(/thinking/);
    model.say('The first');
    expect(await chat.shows('The first▌')).not.toContain('part');
    model.say(' part');
    await chat.shows('The first part▌');
    model.say(', then the rest.');
    await chat.shows('The first part, then the rest.▌');
    model.end();
    const done = await chat.shows(/idle/);
    expect(done).toContain('The first part, then the rest.');
    expect(done).not.toContain('▌');
  });

  it('aborts the running turn on Ctrl+C and on Esc, and shows it aborted', async () => {
    const { model, chat } = chatWithGatedModel();
    await chat.type(...'go', KEY.enter);
    model.say('Partial');
    await chat.shows('Partial▌');
    await chat.type(KEY.ctrlC);
    await chat.shows('■ aborted');
    await chat.shows(/idle/);
    await chat.type(...'again', KEY.enter);
    model.say('Second');
    await chat.shows('Second▌');
    await chat.type(KEY.escape);
    await vi.waitFor(() => expect(chat.frame().match(/■ aborted/g)).toHaveLength(2), { timeout: 20_000 });
  });
});
