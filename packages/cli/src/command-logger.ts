import { createLogger, type Logger, type LogLevel } from '@troupe/runtime';
import type { CliIo } from './cli-io.js';

/**
 * The logger of a command: to `io.stderr`, at `level`, every line naming the command. On a
 * terminal the lines are for a person (time, level, message, fields; coloured unless `NO_COLOR`
 * is set) written above a live view when one is drawn; otherwise JSON lines, for log collectors.
 * Secrets are redacted either way.
 */
export function commandLogger(io: CliIo, level: LogLevel, command: string): Logger {
  const pretty = io.terminal !== undefined;
  const colors = pretty && (io.env['NO_COLOR'] ?? '') === '';
  // While a live view is drawn, log lines go above it (see Terminal.above).
  const write = (text: string): void => (io.terminal?.above ?? io.stderr)(text);
  return createLogger({ level, destination: { write }, base: { command }, format: pretty ? 'pretty' : 'json', colors });
}
