/**
 * The conversation scrolls: ↑/↓ by a row, Page Up/Down by a page, the mouse wheel by three rows;
 * the bottom follows new output, and the top row says how much is above when scrolled.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ev, reply } from '../support/events.js';
import { fakeSession } from '../support/fake-session.js';
import { KEY, renderChat } from '../support/render-chat.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('scrolling', () => {
  it('moves through the conversation by row, page and wheel', async () => {
    const session = fakeSession();
    const chat = renderChat(session, { rows: 12 });
    unmount = chat.unmount;
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n\n');
    session.emit(ev({ type: 'message_start', role: 'assistant' }));
    session.emit(ev({ type: 'message_end', role: 'assistant', message: reply(text) }));
    let shown = await chat.shows('line 30');
    expect(shown).not.toContain('line 20');
    await chat.type(KEY.pageUp);
    shown = await chat.shows(/↑ \d+ more rows/);
    expect(shown).not.toContain('line 30');
    await chat.type('\u001b[B');
    await chat.type(KEY.wheelUp);
    shown = await chat.shows('line 24');
    await chat.type('\u001b[6~', '\u001b[6~', '\u001b[6~');
    await vi.waitFor(() => expect(chat.frame()).toContain('line 30'));
    expect(chat.frame()).not.toMatch(/↑ \d+ more rows/);
  });
});
