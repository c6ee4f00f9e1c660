import { stripVTControlCharacters } from 'node:util';
import { render } from 'ink-testing-library';
import { vi } from 'vitest';
import { ChatApp, type ChatSession, type ChatTerminal } from '../../src/index.js';

/** Keys as a terminal sends them. */
export const KEY = {
  enter: '\r',
  altEnter: '\u001b\r',
  shiftEnter: '\u001b[13;2u',
  shiftTab: '\u001b[Z',
  shiftLeft: '\u001b[1;2D',
  shiftRight: '\u001b[1;2C',
  f2: '\u001bOQ',
  ctrlC: '\u0003',
  escape: '\u001b',
  pageUp: '\u001b[5~',
  wheelUp: '\u001b[<64;10;10M',
} as const;

/** Renders the chat on `session` in a 100 × 30 fake terminal. */
export function renderChat(session: ChatSession, options: { openEditor?: () => string | undefined; rows?: number; terminal?: ChatTerminal } = {}) {
  const app = render(
    <ChatApp
      session={session}
      openEditor={options.openEditor ?? (() => undefined)}
      size={{ columns: 100, rows: options.rows ?? 30 }}
      {...(options.terminal === undefined ? {} : { terminal: options.terminal })}
    />,
  );
  /** The screen as text, colours left out. */
  const frame = (): string => stripVTControlCharacters(app.lastFrame() ?? '');
  return {
    ...app,
    frame,
    /** The screen with its colours (ANSI escapes). */
    colored: (): string => app.lastFrame() ?? '',
    /** Waits until the screen shows `pattern` (the timeout only catches hangs). */
    async shows(pattern: RegExp | string): Promise<string> {
      await vi.waitFor(
        () => {
          const shown = frame();
          if (typeof pattern === 'string' ? !shown.includes(pattern) : !pattern.test(shown)) throw new Error(`not shown: ${pattern}\n${shown}`);
        },
        { timeout: 20_000, interval: 10 },
      );
      return frame();
    },
    /** Types `text` one key at a time, as a person does, each key once the app has taken the one before. */
    async type(...keys: string[]): Promise<void> {
      for (const key of keys) {
        app.stdin.write(key);
        // ink reads input on its own tick; let it take this key before the next.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
