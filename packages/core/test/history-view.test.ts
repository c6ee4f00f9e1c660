/**
 * History views (issue 14 §2): a view has the length of the history when it was made and keeps it
 * as the history grows, leaves out the messages that are not sent to the model (failed, cut-off
 * and refused replies) wherever they are, reads like an array (indexing, iteration, array methods,
 * JSON, `Object.keys`) and refuses writes; the views of one agent find each left-out message once
 * and start over when the history array is replaced.
 */
import { describe, expect, it } from 'vitest';
import { emptyUsage, type AssistantMessage, type Message, type StopReason } from '../src/index.js';
import { HistoryViews } from '../src/history-view.js';

const user = (text: string): Message => ({ role: 'user', content: text, timestamp: 0 });
const reply = (text: string, stopReason: StopReason = 'stop'): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  stopReason,
  usage: emptyUsage(),
  model: 'm',
  timestamp: 0,
});
const texts = (messages: readonly Message[]): string[] =>
  messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : '')).join('')));

describe('HistoryViews', () => {
  it('fixes the length at the time of the view', () => {
    const history: Message[] = [user('a'), reply('b')];
    const views = new HistoryViews();
    const first = views.of(history);
    history.push(user('c'));
    const second = views.of(history);
    expect(first.length).toBe(2);
    expect(texts(first)).toEqual(['a', 'b']);
    expect(first[2]).toBeUndefined();
    expect(texts(second)).toEqual(['a', 'b', 'c']);
  });

  it('leaves out failed, cut-off and refused replies wherever they are', () => {
    const history: Message[] = [user('a'), reply('x', 'error'), reply('b'), user('c'), reply('y', 'refusal'), user('d'), reply('z', 'aborted')];
    const views = new HistoryViews();
    const view = views.of(history);
    expect(view.length).toBe(4);
    expect(texts(view)).toEqual(['a', 'b', 'c', 'd']);
    expect([view[0], view[1], view[2], view[3]].map((m) => m?.role)).toEqual(['user', 'assistant', 'user', 'user']);
    history.push(reply('e'));
    expect(texts(views.of(history))).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(texts(view)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('reads like an array and refuses writes', () => {
    const history: Message[] = [user('a'), reply('b')];
    const view = new HistoryViews().of(history);
    expect(Array.isArray(view)).toBe(true);
    expect(Object.keys(view)).toEqual(['0', '1']);
    expect(1 in view).toBe(true);
    expect(2 in view).toBe(false);
    expect(view.at(-1)).toBe(history[1]);
    expect(view.slice(1)).toEqual([history[1]]);
    expect(view.filter((m) => m.role === 'user')).toEqual([history[0]]);
    expect(JSON.stringify(view)).toBe(JSON.stringify(history));
    expect(view).toEqual(history);
    expect(() => ((view as Message[])[0] = user('z'))).toThrow(TypeError);
    expect(() => (view as Message[]).push(user('z'))).toThrow(TypeError);
    expect(history).toHaveLength(2);
  });

  it('starts over when the history array is replaced', () => {
    const views = new HistoryViews();
    views.of([user('a'), reply('x', 'error')]);
    const replaced: Message[] = [user('b'), reply('c')];
    expect(texts(views.of(replaced))).toEqual(['b', 'c']);
  });
});
