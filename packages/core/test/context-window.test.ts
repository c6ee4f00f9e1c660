/**
 * Compaction before overflow: with `contextWindow` set, a request estimated over the threshold of
 * the window (the last reply's reported tokens plus about a token per four characters since) is
 * compacted before it is sent, so the provider never sees it; a request that still does not fit
 * the window ends in `error` without being sent.
 */
import { describe, expect, it } from 'vitest';
import { Agent, type Message } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';

describe('context window', () => {
  it('compacts a request that would not fit before sending it', async () => {
    const provider = createScriptedProvider([{ text: 'first', usage: { input: 900, output: 50 } }, { text: 'second' }]);
    let compactedFrom = 0;
    const agent = new Agent({
      provider,
      model: 'm',
      contextWindow: 1000,
      compaction: { compact: (messages) => ((compactedFrom = messages.length), messages.slice(-1) as Message[]) },
    });
    await agent.prompt('hello');
    const result = await agent.prompt('x'.repeat(400));
    expect(result.stopReason).toBe('stop');
    expect(compactedFrom).toBe(3);
    expect(provider.requests).toHaveLength(2);
    expect(provider.requests[1]?.messages).toHaveLength(1);
  });

  it('ends in error when even the compacted request does not fit', async () => {
    const provider = createScriptedProvider([{ text: 'never' }]);
    const agent = new Agent({ provider, model: 'm', contextWindow: 10, compaction: { compact: (messages) => [...messages] } });
    const result = await agent.prompt('a prompt far longer than ten tokens could ever hold, surely');
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toMatch(/over the context window of 10/);
    expect(provider.requests).toHaveLength(0);
  });
});
