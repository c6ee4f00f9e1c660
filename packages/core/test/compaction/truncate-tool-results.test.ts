/**
 * `truncateToolResults` (the cascade's first step): a tool result older than the last assistant
 * message and longer than the budget keeps its head and tail around a `[... N lines truncated ...]`
 * marker (cut at line ends, without `details`); results the model is working on now, short ones
 * and other messages stay the same objects; the input is not changed.
 */
import { describe, expect, it } from 'vitest';
import { textOf, truncateToolResults, type Message } from '../../src/index.js';
import { assistant, compactionContext, result, user } from './history.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(3, '0')}`).join('\n');

describe('truncateToolResults', () => {
  it('shortens old results past the budget to their head and tail with a marker', async () => {
    const long: Message = { ...result('c1', lines(200)), details: { bytes: 1800 } } as Message;
    const input: Message[] = [user('task'), assistant('a1', ['c1']), long, assistant('a2', ['c2']), result('c2', lines(200))];
    const out = await truncateToolResults({ budgetTokens: 50 }).compact(input, compactionContext(100));
    const text = textOf(out[2] as Message);
    expect(text.startsWith('line 001\n')).toBe(true);
    expect(text.endsWith('\nline 200')).toBe(true);
    expect(text).toMatch(/\n\[\.\.\. \d+ lines truncated \.\.\.\]\n/);
    expect(text.length).toBeLessThan(260);
    const [, omitted] = /\[\.\.\. (\d+) lines truncated/.exec(text) ?? [];
    expect(text.split('\n').length - 1 + Number(omitted)).toBe(200);
    expect(out[2]).not.toHaveProperty('details');
    expect(out[2]).toMatchObject({ role: 'toolResult', toolCallId: 'c1', isError: false });
    expect(out[4]).toBe(input[4]);
    expect(out.filter((m, i) => m === input[i])).toHaveLength(4);
    expect(textOf(input[2] as Message)).toBe(lines(200));
  });

  it('keeps results within the budget, and counts characters when the text has no lines', async () => {
    const input: Message[] = [user('task'), assistant('a1', ['c1', 'c2']), result('c1', 'short'), result('c2', 'x'.repeat(1000)), assistant('a2')];
    const out = await truncateToolResults({ budgetTokens: 25 }).compact(input, compactionContext(10));
    expect(out[2]).toBe(input[2]);
    expect(textOf(out[3] as Message)).toBe(`${'x'.repeat(50)}\n[... 900 characters truncated ...]\n${'x'.repeat(50)}`);
  });
});
