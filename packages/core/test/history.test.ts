/**
 * A history that tells what happened (issue 14 §2): a model error ends the turn with an assistant
 * message whose stop reason is `error` (with the error), kept in the history, in `message_end` and
 * `turn_end`, and left out of what the next call sends; a refusal is its own stop reason
 * (`refusal`), ends the run with that reason and is not sent back either; each model call gets a
 * view of the history that later turns do not change; and `agent.streamingMessage` shows the reply
 * being streamed, undefined once it has ended.
 */
import { describe, expect, it } from 'vitest';
import { Agent, textOf, type AssistantMessage, type Message, type Provider, type ProviderEvent, type ProviderRequest } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { echoTool, latch, nextEvent, record, scriptedAgent } from './support.js';
import { eventsOf } from './support-extra.js';

describe('a model error', () => {
  it('is an assistant message with stop reason error, kept in the history and the events', async () => {
    const provider = createScriptedProvider([{ error: { kind: 'auth', message: 'bad key' } }, { text: 'back again' }]);
    const agent = new Agent({ provider, model: 'm' });
    const events = record(agent);
    const result = await agent.prompt('hi');
    expect(result.stopReason).toBe('error');
    expect(result.error).toMatchObject({ code: 'provider_error', message: 'bad key' });
    const failure = result.messages.at(-1) as AssistantMessage;
    expect(failure).toMatchObject({ role: 'assistant', stopReason: 'error', errorMessage: 'bad key', content: [], model: 'scripted:m' });
    expect(agent.messages).toContain(failure);
    expect(eventsOf(events, 'message_end').at(-1)?.message).toBe(failure);
    expect(eventsOf(events, 'turn_end').at(-1)?.message).toBe(failure);
    expect(result.text).toBe('');

    // continue() tries again; the failed reply is not sent to the model.
    const again = await agent.continue();
    expect(again.text).toBe('back again');
    expect(provider.requests[1]?.messages.map((m) => m.role)).toEqual(['user']);
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
  });

  it('keeps a reply the provider finished with stop reason error, and its tokens', async () => {
    const reply: AssistantMessage = {
      role: 'assistant',
      content: [{ type: 'text', text: 'half' }],
      stopReason: 'error',
      errorMessage: 'cut',
      model: 'x:m',
      timestamp: 1,
      usage: { input: 5, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 7, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    };
    const provider: Provider = {
      name: 'x',
      async *stream(): AsyncGenerator<ProviderEvent> {
        yield { type: 'done', message: reply };
      },
    };
    const agent = new Agent({ provider, model: 'm' });
    const result = await agent.prompt('hi');
    expect(result.stopReason).toBe('error');
    expect(result.messages.at(-1)).toBe(reply);
    expect(result.usage.totalTokens).toBe(7);
  });
});

describe('a refusal', () => {
  it('ends the run with stop reason refusal and is not sent back to the model', async () => {
    const provider = createScriptedProvider([{ text: 'I cannot help with that.', stopReason: 'refusal' }, { text: 'fine' }]);
    const agent = new Agent({ provider, model: 'm' });
    const result = await agent.prompt('something bad');
    expect(result.stopReason).toBe('refusal');
    expect(result.text).toBe('I cannot help with that.');
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'refusal' });
    await agent.prompt('something else');
    expect(provider.requests[1]?.messages.map((m) => textOf(m))).toEqual(['something bad', 'something else']);
  });
});

describe('what each model call is given', () => {
  it('is a view later turns do not change, not a copy per turn', async () => {
    const seen: ProviderRequest[] = [];
    const inner = createScriptedProvider(
      [{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }, { toolCalls: [{ name: 'echo', arguments: { text: 'b' } }] }, { text: 'done' }],
      {
        recordRequests: false,
      },
    );
    const provider: Provider = { name: 'keeping', stream: (request, options) => (seen.push(request), inner.stream(request, options)) };
    const agent = new Agent({ provider, model: 'm', tools: [echoTool()] });
    await agent.prompt('go');
    expect(seen.map((r) => r.messages.length)).toEqual([1, 3, 5]);
    const first = seen[0]!.messages;
    expect(Array.isArray(first)).toBe(true);
    expect(JSON.parse(JSON.stringify(first))).toEqual([{ role: 'user', content: 'go', timestamp: expect.any(Number) }]);
    expect([...seen[1]!.messages].map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult']);
    expect(seen[2]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'toolResult']);
    // Views share the history's messages rather than copying them.
    expect(seen[2]!.messages[0]).toBe(agent.messages[0]);
    expect(() => (first as Message[]).push(agent.messages[1]!)).toThrow(TypeError);
  });
});

describe('agent.streamingMessage', () => {
  it('is the reply so far while it streams, undefined before and after', async () => {
    const gate = latch();
    const provider: Provider = {
      name: 'slow',
      async *stream(): AsyncGenerator<ProviderEvent> {
        yield { type: 'start' };
        yield { type: 'text_start', index: 0 };
        yield { type: 'text_delta', index: 0, delta: 'Hel' };
        yield { type: 'text_delta', index: 0, delta: 'lo' };
        yield { type: 'toolcall_start', index: 1, id: 'c1', name: 'echo' };
        yield { type: 'toolcall_delta', index: 1, delta: '{"text":' };
        await gate.promise;
        yield { type: 'toolcall_delta', index: 1, delta: '"x"}' };
        yield { type: 'toolcall_end', index: 1 };
        yield {
          type: 'done',
          message: {
            role: 'assistant',
            content: [{ type: 'text', text: 'Hello' }],
            stopReason: 'stop',
            model: 'slow:m',
            timestamp: 1,
            usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
          },
        };
      },
    };
    const agent = new Agent({ provider, model: 'm' });
    expect(agent.streamingMessage).toBeUndefined();
    const partial = nextEvent(agent, 'message_update', (e) => e.delta.type === 'toolcall_delta');
    const result = agent.prompt('hi');
    await partial;
    expect(agent.streamingMessage).toMatchObject({
      role: 'assistant',
      model: 'slow:m',
      content: [
        { type: 'text', text: 'Hello' },
        { type: 'toolCall', id: 'c1', name: 'echo', arguments: {}, rawArguments: '{"text":' },
      ],
    });
    gate.resolve();
    await result;
    expect(agent.streamingMessage).toBeUndefined();
  });

  it('parses a tool call once its block ends', async () => {
    const agent = scriptedAgent([{ toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] }, { text: 'done' }], { tools: [echoTool()] });
    const seen: unknown[] = [];
    agent.events$.subscribe((e) => {
      if (e.type === 'message_update' && e.delta.type === 'toolcall_end') seen.push(structuredClone(agent.streamingMessage?.content[0]));
    });
    await agent.prompt('go');
    expect(seen).toEqual([{ type: 'toolCall', id: 'call_1_1', name: 'echo', arguments: { text: 'hi' } }]);
  });
});
