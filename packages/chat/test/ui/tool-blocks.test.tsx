/**
 * Tool blocks: a new block shows expanded, collapses to one line (name, status badge, first line
 * of output) 3 s after its result (fake timers), F2 toggles the selected block and Shift+←/→ moves
 * the selection; a sub-agent's blocks carry its path. edit_file and write_file show unified diffs
 * (a new file is all additions).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTO_COLLAPSE_MS } from '../../src/index.js';
import { ev } from '../support/events.js';
import { fakeSession, type FakeSession } from '../support/fake-session.js';
import { KEY, renderChat } from '../support/render-chat.js';

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  vi.useRealTimers();
});

function toolCall(session: FakeSession, callId: string, toolName: string, args: Record<string, unknown>, output: string, path = 'assistant'): void {
  session.emit(ev({ type: 'tool_start', toolCallId: callId, toolName, args }, path));
  const result = {
    role: 'toolResult' as const,
    toolCallId: callId,
    toolName,
    content: [{ type: 'text' as const, text: output }],
    isError: false,
    timestamp: 1,
  };
  session.emit(ev({ type: 'tool_end', toolCallId: callId, toolName, result }, path));
}

describe('tool blocks', () => {
  it('start expanded, collapse to one line after 3 s, and toggle with F2 and Shift+←/→', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const session = fakeSession();
    const chat = renderChat(session);
    unmount = chat.unmount;
    toolCall(session, 'c1', 'read_file', { path: 'notes.md' }, 'first line of notes\nsecond line of notes');
    let shown = await chat.shows('second line of notes');
    expect(shown).toContain('▾ read_file(notes.md) [ok]');
    vi.advanceTimersByTime(AUTO_COLLAPSE_MS - 1);
    expect(chat.frame()).toContain('second line of notes');
    vi.advanceTimersByTime(1);
    shown = await chat.shows('▸ read_file(notes.md) [ok] first line of notes');
    expect(shown).not.toContain('second line of notes');

    toolCall(session, 'c2', 'search', { query: 'x' }, 'match one\nmatch two', 'assistant/researcher#1');
    await chat.shows('match two');
    expect(chat.frame()).toContain('assistant/researcher#1 search');
    vi.advanceTimersByTime(AUTO_COLLAPSE_MS);
    await vi.waitFor(() => expect(chat.frame()).not.toContain('match two'));

    // The first Shift+← selects the latest block, the next one the block before it.
    await chat.type(KEY.shiftLeft, KEY.shiftLeft);
    await chat.type(KEY.f2);
    shown = await chat.shows('second line of notes');
    expect(shown).not.toContain('match two');
    await chat.type(KEY.shiftRight, KEY.f2);
    shown = await chat.shows('match two');
    await chat.type(KEY.f2);
    await vi.waitFor(() => expect(chat.frame()).not.toContain('match two'));
    // A block the user toggled stays as they left it.
    vi.advanceTimersByTime(AUTO_COLLAPSE_MS * 2);
    expect(chat.frame()).toContain('second line of notes');
  });

  it('shows an edit as a unified diff of the replaced text', async () => {
    const session = fakeSession();
    const chat = renderChat(session);
    unmount = chat.unmount;
    toolCall(
      session,
      'e1',
      'edit_file',
      { path: 'src/app.ts', old_string: 'const a = 1;\nconst b = 2;', new_string: 'const a = 1;\nconst b = 3;' },
      'Edited src/app.ts (1 replacement).',
    );
    const shown = await chat.shows('Edited src/app.ts');
    expect(shown).toContain('▾ edit_file(src/app.ts) [ok]');
    expect(shown).toMatch(/│ @@ -1,2 \+1,2 @@\n│ {3}const a = 1;\n│ - const b = 2;\n│ \+ const b = 3;/);
  });

  it('shows a new file as all additions', async () => {
    const session = fakeSession();
    const chat = renderChat(session);
    unmount = chat.unmount;
    toolCall(session, 'w1', 'write_file', { path: 'hello.py', content: 'def hello():\n    return "hi"\n' }, 'Created hello.py (31 bytes).');
    const shown = await chat.shows('Created hello.py');
    expect(shown).toMatch(/│ @@ -0,0 \+1,2 @@\n│ \+ def hello\(\):\n│ \+ {5}return "hi"/);
    expect(shown).not.toMatch(/│ - /);
  });
});
