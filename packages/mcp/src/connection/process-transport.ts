import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What starts a stdio server. */
export interface ProcessTransportOptions {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd?: string;
  /** Wait this long after closing stdin before SIGTERM, and again before SIGKILL. */
  graceMs: number;
  /** Each line the server writes to stderr. */
  onStderrLine(line: string): void;
}

/** How the process ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const STDERR_TAIL_LINES = 20;

/**
 * The MCP stdio transport for one server process, in place of the SDK's: the server runs in a
 * process group of its own, so closing ends it together with anything it started (an `npx`
 * wrapper and its child); stderr goes line by line to a callback and its last lines are kept for
 * error messages; how the process ended is known when `onclose` fires.
 *
 * Closing: stdin is closed, then after `graceMs` the group gets SIGTERM, then after `graceMs`
 * more SIGKILL. `close()` resolves once the process is gone.
 *
 * Works around the SDK's `StdioClientTransport.close()` (src/client/stdio.ts), which signals only
 * the direct child and orphans the real server behind a wrapper:
 * modelcontextprotocol/typescript-sdk#2023. It reuses the SDK's `ReadBuffer` and
 * `serializeMessage`, helpers of its public `shared/stdio.js` subpath, not a documented API.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #options: ProcessTransportOptions;
  readonly #buffer = new ReadBuffer();
  #child: ChildProcess | undefined;
  #exit: ProcessExit | undefined;
  #exited: Promise<void> | undefined;
  #stderrTail: string[] = [];
  #stderrPartial = '';

  constructor(options: ProcessTransportOptions) {
    this.#options = options;
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** The server's last stderr lines. */
  stderrTail(): string[] {
    return [...this.#stderrTail];
  }

  start(): Promise<void> {
    if (this.#child !== undefined) throw new Error('ProcessTransport already started');
    const { command, args, env, cwd } = this.#options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env: { ...getDefaultEnvironment(), ...env },
        ...(cwd === undefined ? {} : { cwd }),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        shell: false,
      });
      this.#child = child;
      this.#exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => {
        this.#flushStderr();
        this.#exit = { code, signal };
        // Whatever a server that died left running in its group (an npx wrapper's child) goes too.
        this.#signalGroup(child, 'SIGKILL');
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.#buffer.append(chunk);
          this.#drain();
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        }
      });
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.#onStderr(chunk));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (stdin === undefined || stdin === null || this.#exit !== undefined || stdin.destroyed)
      return Promise.reject(new Error('the server process is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    const child = this.#child;
    // Never started (spawn failed): nothing to end.
    if (child === undefined || child.pid === undefined || this.#exited === undefined) return;
    if (this.#exit === undefined) {
      child.stdin?.end();
      if (!(await this.#waitExit(this.#options.graceMs))) {
        this.#signalGroup(child, 'SIGTERM');
        if (!(await this.#waitExit(this.#options.graceMs))) {
          this.#signalGroup(child, 'SIGKILL');
          await this.#exited;
        }
      }
    }
    // Whatever the server started and left behind in its group goes too.
    this.#signalGroup(child, 'SIGKILL');
    this.#buffer.clear();
  }

  async #waitExit(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const exited = (this.#exited as Promise<void>).then(() => true);
    const done = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    return done;
  }

  #signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is gone already.
    }
  }

  #drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  #onStderr(chunk: string): void {
    const lines = (this.#stderrPartial + chunk).split('\n');
    this.#stderrPartial = lines.pop() ?? '';
    for (const line of lines) this.#stderrLine(line);
  }

  #flushStderr(): void {
    if (this.#stderrPartial !== '') this.#stderrLine(this.#stderrPartial);
    this.#stderrPartial = '';
  }

  #stderrLine(raw: string): void {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') return;
    this.#stderrTail.push(line);
    if (this.#stderrTail.length > STDERR_TAIL_LINES) this.#stderrTail.shift();
    this.#options.onStderrLine(line);
  }
}
