/**
 * Input guardrails (issue 14 §5, the seeds' input filter chain REQ-068/069): a prompt goes through
 * the agent's guardrails in order before it enters the history and before any model call. A
 * rejection ends the run with stop reason `rejected` after an `input_rejected` event, the history
 * untouched and nothing sent to the model; a rewrite changes what the next guardrail, the history
 * and the model see; a throwing guardrail fails the run (`guardrail_failed`), it never lets the
 * input through. Checks may be asynchronous: an abort during one ends the run, and a snapshot
 * taken during one restores and checks again. `maxInputLength` and `denyPatterns` are built in.
 */
import { describe, expect, it } from 'vitest';
import { Agent, denyPatterns, maxInputLength, rewriteInput, type InputGuardrail } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { latch, record, typesOf } from './support.js';

function guarded(guardrails: InputGuardrail[], script = [{ text: 'answer' }]) {
  const provider = createScriptedProvider(script);
  const agent = new Agent({ provider, model: 'm', guardrails });
  return { provider, agent, events: record(agent) };
}

describe('input guardrails', () => {
  it('a rejection ends the run before any model call, with input_rejected and stop reason rejected', async () => {
    const seen: string[] = [];
    const spy: InputGuardrail = { name: 'spy', check: ({ text }) => void seen.push(text) };
    const { agent, provider, events } = guarded([spy, denyPatterns(['rm\\s+-rf']), spy]);
    const result = await agent.prompt('please rm   -rf /');
    expect(result.stopReason).toBe('rejected');
    expect(result.error).toEqual({ code: 'input_rejected', message: 'the input matches a denied pattern (rm\\s+-rf)', data: { guardrail: 'denyPatterns' } });
    expect(result.messages).toEqual([]);
    expect(result.turns).toBe(0);
    expect(provider.requests).toHaveLength(0);
    expect(agent.messages).toEqual([]);
    expect(seen).toEqual(['please rm   -rf /']);
    expect(typesOf(events)).toEqual(['agent_start', 'input_rejected', 'state:done', 'agent_end']);
    expect(events[1]).toMatchObject({ type: 'input_rejected', guardrail: 'denyPatterns', reason: 'the input matches a denied pattern (rm\\s+-rf)' });
    // The next prompt is checked afresh.
    expect((await agent.prompt('ls')).text).toBe('answer');
  });

  it('a rewrite changes what the next guardrail, the history and the model see', async () => {
    const redact: InputGuardrail = { name: 'redact', check: async ({ text }) => ({ action: 'rewrite', text: text.replace(/\d{4}-\d{4}/g, '[card]') }) };
    const seen: string[] = [];
    const after: InputGuardrail = { name: 'after', check: ({ text }) => (seen.push(text), { action: 'allow' }) };
    const { agent, provider } = guarded([redact, after, maxInputLength(100)]);
    const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
    const result = await agent.prompt([{ type: 'text', text: 'my card is 1234-5678' }, image]);
    expect(result.stopReason).toBe('stop');
    expect(seen).toEqual(['my card is [card]']);
    expect(agent.messages[0]?.content).toEqual([{ type: 'text', text: 'my card is [card]' }, image]);
    expect(provider.requests[0]?.messages[0]?.content).toEqual([{ type: 'text', text: 'my card is [card]' }, image]);
  });

  it('maxInputLength rejects long input; a throwing guardrail fails the run', async () => {
    const long = guarded([maxInputLength(5)]);
    expect((await long.agent.prompt('123456')).error?.message).toBe('the input is 6 characters long, over the limit of 5');
    const broken = guarded([{ name: 'moderation', check: () => Promise.reject(new Error('service down')) }]);
    const result = await broken.agent.prompt('hi');
    expect(result.stopReason).toBe('error');
    expect(result.error).toEqual({ code: 'guardrail_failed', message: 'guardrail moderation failed: service down', data: { guardrail: 'moderation' } });
    expect(broken.provider.requests).toHaveLength(0);
    expect(typesOf(broken.events)).not.toContain('input_rejected');
  });

  it('an abort during a check ends the run without adding to the history', async () => {
    const started = latch<AbortSignal>();
    const slow: InputGuardrail = {
      name: 'slow',
      check: (_input, { signal }) => new Promise((resolve) => (started.resolve(signal), signal.addEventListener('abort', () => resolve(undefined)))),
    };
    const { agent, provider } = guarded([slow]);
    const run = agent.prompt('hi');
    const signal = await started.promise;
    expect(agent.isRunning).toBe(true);
    expect(() => agent.prompt('again')).toThrow(expect.objectContaining({ code: 'already_running' }));
    agent.abort();
    const result = await run;
    expect(result.stopReason).toBe('aborted');
    expect(signal.aborted).toBe(true);
    expect(agent.messages).toEqual([]);
    expect(provider.requests).toHaveLength(0);
  });

  it('a snapshot taken during a check restores and checks the prompt again', async () => {
    const started = latch();
    const pending: InputGuardrail = { name: 'pending', check: () => (started.resolve(), new Promise(() => undefined)) };
    const { agent } = guarded([pending]);
    void agent.prompt('hello');
    await started.promise;
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot())) as unknown;
    agent.abort();
    const checked: string[] = [];
    const provider = createScriptedProvider([{ text: 'restored answer' }]);
    const restored = Agent.restore(snapshot, { provider, model: 'm', guardrails: [{ name: 'again', check: ({ text }) => void checked.push(text) }] });
    const result = await restored.result;
    expect(checked).toEqual(['hello']);
    expect(result.text).toBe('restored answer');
    expect(restored.messages.map((m) => m.content)).toEqual(['hello', [{ type: 'text', text: 'restored answer' }]]);
  });

  it('rewriteInput gives the text to the first user message and keeps other messages', () => {
    const out = rewriteInput(
      [
        { role: 'custom', customType: 'note', content: 'n', timestamp: 1 },
        { role: 'user', content: 'a', timestamp: 1 },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'b' },
            { type: 'image', data: 'x', mimeType: 'image/png' },
          ],
          timestamp: 2,
        },
        { role: 'user', content: 'c', timestamp: 3 },
      ],
      'all new',
    );
    expect(out.map((m) => m.content)).toEqual(['n', 'all new', [{ type: 'image', data: 'x', mimeType: 'image/png' }]]);
    expect(() => denyPatterns(['('])).toThrow(SyntaxError);
    expect(() => maxInputLength(0)).toThrow(RangeError);
  });
});
