/**
 * Custom messages and the `convertToLlm` hook (issue 14 §5, the Swink PRD's open message type):
 * an application's own messages (`role: 'custom'`) live in the history and its events like any
 * other, are never sent to the model without the hook, and are sent as whatever the hook turns
 * them into (one message, several, or none). `transformContext` runs first and sees them.
 */
import { describe, expect, it } from 'vitest';
import { Agent, textOf, type CustomMessage, type LlmMessage, type Message } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { record } from './support.js';

const note = (text: string, customType = 'note'): CustomMessage => ({ role: 'custom', customType, content: text, details: { pinned: true }, timestamp: 1 });

describe('custom messages', () => {
  it('are kept in the history and the events but not sent to the model by default', async () => {
    const provider = createScriptedProvider([{ text: 'a' }, { text: 'b' }]);
    const agent = new Agent({ provider, model: 'm' });
    const events = record(agent);
    await agent.prompt([note('the user opened settings'), { role: 'user', content: 'hi', timestamp: 1 }]);
    agent.steer(note('a build finished'));
    await agent.continue();
    expect(agent.messages.map((m) => m.role)).toEqual(['custom', 'user', 'assistant', 'custom', 'assistant']);
    expect(provider.requests.map((r) => r.messages.map((m) => m.role))).toEqual([['user'], ['user', 'assistant']]);
    const ends = events.filter((e) => e.type === 'message_end' && e.message?.role === 'custom');
    expect(ends).toHaveLength(2);
  });

  it('reach the model as convertToLlm makes them, after transformContext', async () => {
    const provider = createScriptedProvider([{ text: 'ok' }]);
    const seenByTransform: string[][] = [];
    const agent = new Agent({
      provider,
      model: 'm',
      hooks: {
        transformContext: (messages) => (seenByTransform.push(messages.map((m) => m.role)), messages),
        convertToLlm: (message): LlmMessage | LlmMessage[] | undefined => {
          if (message.customType === 'secret') return undefined;
          if (message.customType === 'pair')
            return [
              { role: 'user', content: `[1] ${textOf(message)}`, timestamp: 1 },
              { role: 'user', content: `[2] ${textOf(message)}`, timestamp: 1 },
            ];
          return { role: 'user', content: `[note] ${textOf(message)}`, timestamp: message.timestamp };
        },
      },
    });
    const input: Message[] = [note('kept'), note('hidden', 'secret'), note('twice', 'pair'), { role: 'user', content: 'go', timestamp: 1 }];
    await agent.prompt(input);
    expect(seenByTransform).toEqual([['custom', 'custom', 'custom', 'user']]);
    expect(provider.requests[0]?.messages.map((m) => m.content)).toEqual(['[note] kept', '[1] twice', '[2] twice', 'go']);
    expect(agent.messages.slice(0, 3)).toEqual(input.slice(0, 3));
  });

  it('a throwing convertToLlm fails the model call, not the process', async () => {
    const agent = new Agent({
      provider: createScriptedProvider([{ text: 'never' }]),
      model: 'm',
      retry: { delayFor: () => undefined },
      hooks: {
        convertToLlm: () => {
          throw new Error('cannot convert');
        },
      },
    });
    const result = await agent.prompt([note('x'), { role: 'user', content: 'go', timestamp: 1 }]);
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toContain('convertToLlm hook failed: cannot convert');
  });
});
