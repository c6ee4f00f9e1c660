/**
 * Thinking blocks: a reply's thinking shows as one collapsed line by default (its text hidden,
 * while it streams too); Shift+←/→ selects it as it does tool blocks, and F2 on it expands it to
 * its text, then collapses it again.
 */
import { emptyUsage } from '@troupe/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ev } from '../support/events.js';
import { fakeSession } from '../support/fake-session.js';
import { KEY, renderChat } from '../support/render-chat.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const THINKING = 'The user wants notes.\nFirst read the file, then sum up.';

describe('thinking blocks', () => {
  it('are collapsed to one line, and F2 on the selected one expands it to its text', async () => {
    const session = fakeSession();
    const chat = renderChat(session);
    unmount = chat.unmount;
    session.emit(ev({ type: 'message_start', role: 'assistant' }));
    session.emit(ev({ type: 'message_update', delta: { type: 'thinking_delta', index: 0, delta: 'The user wants notes.' } }));
    await chat.shows('∴ thinking (21 chars, collapsed · F2)');
    expect(chat.frame()).not.toContain('The user wants notes.');
    session.emit(ev({ type: 'message_update', delta: { type: 'thinking_delta', index: 0, delta: '\nFirst read the file, then sum up.' } }));
    session.emit(ev({ type: 'message_update', delta: { type: 'text_delta', index: 1, delta: 'Here are the notes.' } }));
    const message = {
      role: 'assistant' as const,
      content: [
        { type: 'thinking' as const, thinking: THINKING },
        { type: 'text' as const, text: 'Here are the notes.' },
      ],
      stopReason: 'stop' as const,
      usage: emptyUsage(),
      model: 'scripted:test',
      timestamp: 1,
    };
    session.emit(ev({ type: 'message_end', role: 'assistant', message }));
    let shown = await chat.shows(`▸ ∴ thinking (${THINKING.length} chars, collapsed · F2)`);
    expect(shown).toContain('Here are the notes.');
    expect(shown).not.toContain('First read the file');

    // A tool block after it: the first Shift+← selects the tool block, the next one the thinking.
    const result = {
      role: 'toolResult' as const,
      toolCallId: 't1',
      toolName: 'read_file',
      content: [{ type: 'text' as const, text: 'notes' }],
      isError: false,
      timestamp: 1,
    };
    session.emit(ev({ type: 'tool_start', toolCallId: 't1', toolName: 'read_file', args: { path: 'notes.md' } }));
    session.emit(ev({ type: 'tool_end', toolCallId: 't1', toolName: 'read_file', result }));
    await chat.shows('read_file(notes.md) [ok]');
    await chat.type(KEY.shiftLeft, KEY.shiftLeft, KEY.f2);
    shown = await chat.shows('First read the file, then sum up.');
    expect(shown).toMatch(/▸ ∴ thinking\n│ The user wants notes\.\n│ First read the file, then sum up\.\nHere are the notes\./);

    await chat.type(KEY.f2);
    shown = await chat.shows(`∴ thinking (${THINKING.length} chars, collapsed · F2)`);
    expect(shown).not.toContain('First read the file');
  });
});
