import { render } from 'ink';
import type { ChatSession } from './chat-session.js';
import { editExternally } from './external-editor.js';
import { ALT_SCREEN_OFF, ALT_SCREEN_ON, MOUSE_OFF, MOUSE_ON } from './raw-keys.js';
import { ChatApp, type ChatTerminal } from './ui/chat-app.js';

/** Options of {@link runChat}. */
export interface RunChatOptions {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** Where `EDITOR` and `VISUAL` are read. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

/**
 * Runs the chat full-screen in the terminal until the user quits: the alternate screen and mouse
 * wheel reports are on while it runs, and the terminal is given back as it was, also when the app
 * fails. Closes the session before resolving.
 */
export async function runChat(session: ChatSession, options: RunChatOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const env = options.env ?? process.env;
  const enter = (): void => void stdout.write(`${ALT_SCREEN_ON}${MOUSE_ON}`);
  const leave = (): void => void stdout.write(`${MOUSE_OFF}${ALT_SCREEN_OFF}`);
  const terminal: ChatTerminal = {
    suspend() {
      leave();
      // The editor owns the terminal: cooked mode, no reads by the app (it is blocked meanwhile anyway).
      if (stdin.isTTY) stdin.setRawMode(false);
    },
    resume() {
      if (stdin.isTTY) stdin.setRawMode(true);
      enter();
      // Clear what the editor left; the next frame redraws everything.
      stdout.write('\u001b[2J\u001b[H');
      instance.clear();
    },
  };
  enter();
  const instance = render(<ChatApp session={session} terminal={terminal} openEditor={() => editExternally({ env }).text} />, {
    stdin,
    stdout,
    exitOnCtrlC: false,
    patchConsole: true,
  });
  // A resize leaves pieces of the old frame on screen (the terminal cuts or rewraps its lines, and
  // ink erases only as many lines as it drew): clear the screen first, so the new frame is drawn whole.
  const redraw = (): void => {
    stdout.write('\u001b[2J\u001b[H');
    instance.clear();
  };
  stdout.prependListener('resize', redraw);
  try {
    await instance.waitUntilExit();
  } finally {
    stdout.off('resize', redraw);
    instance.unmount();
    leave();
    await session.close();
  }
}
