/**
 * The input editor takes several lines (Shift+Enter and Alt+Enter add one), sends on Enter, and
 * recalls earlier inputs with Ctrl+P / Ctrl+N; slash commands are not sent to the agent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeSession } from '../support/fake-session.js';
import { KEY, renderChat } from '../support/render-chat.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('input editor', () => {
  it('adds lines on Shift+Enter and Alt+Enter, and sends them all on Enter', async () => {
    const session = fakeSession();
    const chat = renderChat(session);
    unmount = chat.unmount;
    await chat.type(...'first line', KEY.shiftEnter, ...'second line', KEY.altEnter, ...'third');
    const typed = await chat.shows('third');
    expect(typed).toMatch(/› first line\n {2}second line\n {2}third/);
    expect(session.sent).toEqual([]);
    await chat.type(KEY.enter);
    await vi.waitFor(() => expect(session.sent).toEqual(['first line\nsecond line\nthird']));
    // The editor is empty again once the message is sent.
    await vi.waitFor(() => expect(chat.frame()).not.toContain('second line'));
  });

  it('takes keys that arrive in one chunk (typed while the app was busy) one by one', async () => {
    const session = fakeSession();
    const chat = renderChat(session);
    unmount = chat.unmount;
    chat.stdin.write('hellp\u007fo\r');
    await vi.waitFor(() => expect(session.sent).toEqual(['hello']));
    chat.stdin.write('two\rlines\r');
    await vi.waitFor(() => expect(session.sent).toEqual(['hello', 'two\nlines']));
  });

  it('recalls earlier inputs with Ctrl+P and Ctrl+N, and keeps commands from the agent', async () => {
    const session = fakeSession();
    const chat = renderChat(session);
    unmount = chat.unmount;
    await chat.type(...'one', KEY.enter, ...'two', KEY.enter);
    await vi.waitFor(() => expect(session.sent).toEqual(['one', 'two']));
    await chat.type('\u0010');
    await chat.shows('› two');
    await chat.type('\u0010');
    await chat.shows('› one');
    await chat.type('\u000e', '\u000e');
    await chat.type(...'/help', KEY.enter);
    await chat.shows('Shift+Tab or /plan');
    expect(session.sent).toEqual(['one', 'two']);
  });
});
