import type { KeyPress } from '../cli-io.js';
import type { KeyFocus } from './key-focus.js';
import type { Screen } from './screen.js';

/** How a prompt ended: answered, cancelled with Esc (the run is left waiting), or the run was aborted (Ctrl-C). */
export type PromptOutcome<T> = { kind: 'answer'; value: T } | { kind: 'cancel' } | { kind: 'aborted' };

/** One prompt's look and keys: `onKey` returns the answer once there is one. */
export interface PromptSession<T> {
  render(): string[];
  onKey(key: KeyPress): T | undefined;
}

/**
 * Shows a prompt in the screen's live area and feeds it the keys until it has an answer. Esc
 * cancels; the signal (Ctrl-C) ends it as aborted. The prompt's lines are removed when it ends.
 */
export function runPrompt<T>(screen: Screen, focus: KeyFocus, signal: AbortSignal, session: PromptSession<T>): Promise<PromptOutcome<T>> {
  if (signal.aborted) return Promise.resolve({ kind: 'aborted' });
  return new Promise((resolve) => {
    const finish = (outcome: PromptOutcome<T>): void => {
      release();
      signal.removeEventListener('abort', onAbort);
      screen.prompt(undefined);
      resolve(outcome);
    };
    const onAbort = (): void => finish({ kind: 'aborted' });
    const release = focus.take((key) => {
      if (key.name === 'escape') return finish({ kind: 'cancel' });
      const value = session.onKey(key);
      if (value !== undefined) return finish({ kind: 'answer', value });
      screen.prompt(session.render());
    });
    signal.addEventListener('abort', onAbort, { once: true });
    screen.prompt(session.render());
  });
}
