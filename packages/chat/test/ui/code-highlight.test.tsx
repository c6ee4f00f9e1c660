/**
 * Code blocks in replies: a fenced ```ts block is rendered syntax-highlighted (ANSI colours on
 * its tokens, by cli-highlight through marked-terminal), its code text intact and its fences gone.
 */
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ev, reply } from '../support/events.js';
import { fakeSession } from '../support/fake-session.js';
import { renderChat } from '../support/render-chat.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const CODE = ['export function add(a: number, b: number): number {', '  return a + b; // the sum', '}'];

describe('code blocks', () => {
  it('are syntax-highlighted with their text intact', async () => {
    const session = fakeSession();
    const chat = renderChat(session);
    unmount = chat.unmount;
    const text = ['Here it is:', '', '```ts', ...CODE, '```', '', 'Done.'].join('\n');
    session.emit(ev({ type: 'message_start', role: 'assistant' }));
    session.emit(ev({ type: 'message_update', delta: { type: 'text_delta', index: 0, delta: text } }));
    session.emit(ev({ type: 'message_end', role: 'assistant', message: reply(text) }));
    const shown = await chat.shows('Done.');
    for (const line of CODE) expect(shown).toContain(line.trim());
    expect(shown).not.toContain('```');

    const rows = chat.colored().split('\n');
    const codeRows = rows.filter((row) => CODE.some((line) => stripVTControlCharacters(row).includes(line.trim())));
    expect(codeRows).toHaveLength(CODE.length);
    // The keywords and the comment are coloured apart from the code around them (an escape right before each).
    const first = codeRows[0] ?? '';
    expect(first).toMatch(/\u001b\[\d+(;\d+)*mexport\b/);
    expect(first).toMatch(/\u001b\[\d+(;\d+)*mfunction\b/);
    expect(codeRows[1]).toMatch(/\u001b\[\d+(;\d+)*mreturn\b/);
    expect(codeRows[1]).toMatch(/\u001b\[\d+(;\d+)*m\/\/ the sum/);
    // The prose around it is not coloured as code.
    const prose = rows.find((row) => stripVTControlCharacters(row).includes('Here it is:')) ?? '';
    expect(prose).not.toMatch(/\u001b\[\d+(;\d+)*mHere/);
  });
});
