import type { McpLogger } from '../../src/index.js';

/** One logged line. */
export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  data: Record<string, unknown>;
}

/** A logger that keeps every entry and lets a test wait for one (a latch, not a sleep). */
export class RecordingLogger implements McpLogger {
  readonly entries: LogEntry[] = [];
  readonly #waiters: { test: (entry: LogEntry) => boolean; resolve: (entry: LogEntry) => void }[] = [];

  debug(data: Record<string, unknown>, message: string): void {
    this.#add({ level: 'debug', message, data });
  }

  info(data: Record<string, unknown>, message: string): void {
    this.#add({ level: 'info', message, data });
  }

  warn(data: Record<string, unknown>, message: string): void {
    this.#add({ level: 'warn', message, data });
  }

  error(data: Record<string, unknown>, message: string): void {
    this.#add({ level: 'error', message, data });
  }

  /** Resolves with the first entry, past or future, that passes `test`. */
  waitFor(test: (entry: LogEntry) => boolean): Promise<LogEntry> {
    const found = this.entries.find(test);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  /** Resolves with the first entry whose message matches, past or future. */
  waitForMessage(pattern: RegExp): Promise<LogEntry> {
    return this.waitFor((entry) => pattern.test(entry.message));
  }

  #add(entry: LogEntry): void {
    this.entries.push(entry);
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const waiter = this.#waiters[i];
      if (waiter?.test(entry)) {
        this.#waiters.splice(i, 1);
        waiter.resolve(entry);
      }
    }
  }
}
