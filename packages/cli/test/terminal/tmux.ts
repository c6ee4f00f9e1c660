import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

let sessions = 0;

/**
 * A real terminal for end-to-end tests: a tmux session on its own server (socket), in which a
 * test types commands and reads the screen as a person would see it.
 */
export class TmuxSession {
  readonly #socket: string;

  private constructor(socket: string) {
    this.#socket = socket;
  }

  /** Starts a shell in a `columns` × `rows` terminal, in `cwd`, with `env` added to the environment. */
  static async start(options: { columns: number; rows: number; cwd: string; env?: Record<string, string> }): Promise<TmuxSession> {
    sessions += 1;
    const session = new TmuxSession(`troupe-test-${process.pid}-${sessions}`);
    const env = Object.entries({ PS1: '$ ', ...options.env }).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
    await session.#tmux(
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(options.columns),
      '-y',
      String(options.rows),
      '-c',
      options.cwd,
      ...env,
      'bash --norc --noprofile',
    );
    await session.#tmux('set-option', '-g', 'history-limit', '5000');
    return session;
  }

  /** Types `command` and Enter, followed by `echo EXIT=$?` so the exit code shows on screen. */
  async command(command: string): Promise<void> {
    await this.#tmux('send-keys', '-t', 'main', '-l', `${command}; echo EXIT=$?`);
    await this.keys('Enter');
  }

  /** Presses keys by tmux's names (`Enter`, `Escape`, `C-c`, `Down`) or types literal text with `{ text }`. */
  async keys(...keys: (string | { text: string })[]): Promise<void> {
    for (const key of keys) {
      if (typeof key === 'string') await this.#tmux('send-keys', '-t', 'main', key);
      else await this.#tmux('send-keys', '-t', 'main', '-l', key.text);
    }
  }

  /** The rows on screen and in the scrollback, as shown (wrapped rows apart), trailing blanks left out. */
  async screen(): Promise<string[]> {
    const { stdout } = await this.#tmux('capture-pane', '-p', '-t', 'main', '-S', '-5000');
    const rows = stdout.split('\n').map((row) => row.trimEnd());
    while (rows.length > 0 && rows.at(-1) === '') rows.pop();
    return rows;
  }

  /** Reads the screen until `pattern` matches it (joined by newlines); fails after `timeoutMs` with what it showed. */
  async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await this.screen();
      if (pattern.test(rows.join('\n'))) return rows;
      if (Date.now() > deadline) throw new Error(`the terminal never showed ${pattern}; it shows:\n${rows.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async resize(columns: number, rows: number): Promise<void> {
    await this.#tmux('resize-window', '-t', 'main', '-x', String(columns), '-y', String(rows));
  }

  async close(): Promise<void> {
    await this.#tmux('kill-server').catch(() => undefined);
  }

  #tmux(...args: string[]): Promise<{ stdout: string }> {
    return run('tmux', ['-L', this.#socket, '-f', '/dev/null', ...args]);
  }
}
