/**
 * Proves the prompts behave as a person expects: the permission menu shows its default ("Yes,
 * once", never a destructive choice) and Enter takes it, arrows move, a letter decides at once,
 * a typo decides nothing and says what to press; Esc cancels (the run is left waiting) and the
 * interrupt (Ctrl-C) aborts; the question prompt edits a line and does not send an empty one.
 * Regression: Enter or a typo used to mean `deny_interrupt`, and the first Ctrl-C was swallowed.
 */
import { describe, expect, it } from 'vitest';
import type { KeyInput, KeyPress } from '../../src/cli-io.js';
import { KeyFocus } from '../../src/view/key-focus.js';
import { permissionMenu } from '../../src/view/permission-menu.js';
import { runPrompt } from '../../src/view/prompt.js';
import { questionPrompt } from '../../src/view/question-prompt.js';
import type { Screen } from '../../src/view/screen.js';
import { PLAIN } from '../../src/view/style.js';

const key = (name: string, sequence = name.length === 1 ? name : ''): KeyPress => ({ name, sequence });
const typed = (text: string): KeyPress[] => [...text].map((char) => ({ sequence: char, ...(/[a-z]/.test(char) ? { name: char } : {}) }));

/** A screen that keeps the prompt drawn last, and keys the test presses. */
function rig() {
  let drawn: readonly string[] | undefined;
  const screen: Screen = {
    write: () => undefined,
    endLine: () => undefined,
    note: () => undefined,
    status: () => undefined,
    prompt: (lines) => (drawn = lines),
    width: 80,
    live: true,
    close: () => undefined,
  };
  let deliver: ((key: KeyPress) => void) | undefined;
  const keys: KeyInput = { listen: (onKey) => ((deliver = onKey), () => (deliver = undefined)) };
  const focus = new KeyFocus(keys);
  return {
    screen,
    focus,
    press: (...pressed: KeyPress[]) => {
      for (const k of pressed) deliver?.(k);
    },
    drawn: () => drawn,
  };
}

const ask = { path: 'assistant', toolName: 'bash', args: { command: 'rm -rf build' } };

describe('permission menu', () => {
  it('shows "Yes, once" as the default and takes it on Enter', async () => {
    const { screen, focus, press, drawn } = rig();
    const answer = runPrompt(screen, focus, new AbortController().signal, permissionMenu(ask, PLAIN));
    expect(drawn()?.[0]).toBe('? assistant wants to run bash(rm -rf build)');
    expect(drawn()?.[1]).toMatch(/^ {2}❯ Yes, once +y$/);
    press(key('return'));
    expect(await answer).toEqual({ kind: 'answer', value: 'allow_once' });
    expect(drawn()).toBeUndefined();
  });

  it('asks again after a typo, moves with the arrows, and takes a letter at once', async () => {
    const { screen, focus, press, drawn } = rig();
    const answer = runPrompt(screen, focus, new AbortController().signal, permissionMenu(ask, PLAIN));
    press(key('x'));
    expect(drawn()?.at(-1)).toBe('  press y, a, n or v, or ↑/↓ and Enter (Enter: Yes, once)');
    press(key('down'), key('down'));
    expect(drawn()?.[3]).toMatch(/^ {2}❯ No, and stop the run/);
    press(key('v'));
    expect(await answer).toEqual({ kind: 'answer', value: 'deny_never' });
  });

  it('cancels on Esc and ends as aborted on the interrupt', async () => {
    const first = rig();
    const cancelled = runPrompt(first.screen, first.focus, new AbortController().signal, permissionMenu(ask, PLAIN));
    first.press(key('escape'));
    expect(await cancelled).toEqual({ kind: 'cancel' });
    const second = rig();
    const interrupt = new AbortController();
    const aborted = runPrompt(second.screen, second.focus, interrupt.signal, permissionMenu(ask, PLAIN));
    interrupt.abort();
    expect(await aborted).toEqual({ kind: 'aborted' });
    expect(second.drawn()).toBeUndefined();
  });
});

describe('question prompt', () => {
  it('edits a line, does not send it empty, and sends it on Enter', async () => {
    const { screen, focus, press, drawn } = rig();
    const answer = runPrompt(
      screen,
      focus,
      new AbortController().signal,
      questionPrompt({ path: 'asker', question: 'Your name?' }, PLAIN, () => 80),
    );
    press(key('return'));
    expect(drawn()).toEqual(['? asker asks: Your name?', '  › ▏', '  type an answer, then Enter']);
    press(...typed('Adx'), key('backspace'), ...typed('a L'));
    expect(drawn()?.[1]).toBe('  › Ada L▏');
    press(key('return'));
    expect(await answer).toEqual({ kind: 'answer', value: 'Ada L' });
  });
});
