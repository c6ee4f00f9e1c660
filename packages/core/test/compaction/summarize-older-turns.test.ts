/**
 * `summarizeOlderTurns` (the cascade's second step), with a scripted summarizer: the turns between
 * the task and the most recent ones become one summary message written by the model, which is
 * asked (in a prompt that keeps goals, decisions, files touched and open questions) to summarise a
 * transcript of them; the summary call's usage is reported; the agent's own model is used unless
 * another is given; a failed summary call rejects.
 */
import { describe, expect, it } from 'vitest';
import { SUMMARY_HEADER, summarizeOlderTurns, textOf, type Message } from '../../src/index.js';
import { createScriptedProvider } from '../../src/testing.js';
import { compactionContext, labels, pairsIntact, toolHistory } from './history.js';

describe('summarizeOlderTurns', () => {
  it('replaces the older turns with a summary the summarizer wrote, keeping the task and the recent turns', async () => {
    const summarizer = createScriptedProvider([{ text: 'Goals: finish the task. Files touched: none.', usage: { input: 700, output: 12 } }]);
    const input = toolHistory(10, 400);
    const context = compactionContext(1000);
    const out = await summarizeOlderTurns({ summarizer: { provider: summarizer, model: 'small' } }).compact(input, context);
    expect(out[0]).toBe(input[0]);
    expect(out[1]).toMatchObject({ role: 'user', content: `${SUMMARY_HEADER}\n\nGoals: finish the task. Files touched: none.` });
    expect(labels(out.slice(2))).toEqual(['step 9', 'c9', 'step 10', 'c10', 'done']);
    expect(out.slice(2).every((m) => input.includes(m))).toBe(true);
    expect(pairsIntact(out)).toBe(true);

    const [request] = summarizer.requests;
    expect(request?.model).toBe('small');
    expect(request?.tools).toEqual([]);
    expect(request?.systemPrompt).toMatch(/summarise the earlier part of a conversation/);
    const prompt = textOf(request?.messages[0] as Message);
    for (const heading of ['Goals:', 'Decisions:', 'Files touched:', 'Open questions:']) expect(prompt).toContain(heading);
    expect(prompt).toContain('[user]\ntask');
    expect(prompt).toContain('[assistant called echo] {"text":"c1"}');
    expect(prompt).toContain('[tool result: echo]\n1:xxx');
    expect(prompt).toContain('step 8');
    expect(prompt).not.toContain('step 9');
    expect(context.usage.map((u) => [u.input, u.output])).toEqual([[700, 12]]);
  });

  it("uses the agent's own model when given none, and summarises an earlier summary again", async () => {
    const own = createScriptedProvider([{ text: 'first summary' }, { text: 'second summary' }]);
    const context = compactionContext(1000, { provider: own, model: 'agent-model' });
    const step = summarizeOlderTurns();
    const once = await step.compact(toolHistory(10, 400), context);
    const twice = await step.compact([...once, ...toolHistory(10, 400).slice(1)], context);
    expect(own.requests.map((r) => r.model)).toEqual(['agent-model', 'agent-model']);
    expect(textOf(own.requests[1]?.messages[0] as Message)).toContain('first summary');
    expect(twice.filter((m) => m.role === 'user' && textOf(m).startsWith(SUMMARY_HEADER)).map(textOf)).toEqual([`${SUMMARY_HEADER}\n\nsecond summary`]);
  });

  it('rejects when the summary call fails', async () => {
    const failing = createScriptedProvider([{ error: { kind: 'api', message: 'model unavailable' } }]);
    const step = summarizeOlderTurns({ summarizer: { provider: failing, model: 'small' } });
    await expect(step.compact(toolHistory(6, 400), compactionContext(500))).rejects.toThrow(/the summary call failed: model unavailable/);
  });
});
