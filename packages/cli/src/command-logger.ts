import { createLogger, type Logger, type LogLevel } from '@troupe/runtime';
import type { CliIo } from './cli-io.js';

/**
 * The logger of a command: to `io.stderr`, at `level`, every line naming the command. On a
 * terminal the lines are for a person (time, level, message, fields; coloured unless `NO_COLOR`
 * is set); otherwise JSON lines, for log collectors. Secrets are redacted either way.
 */
export function commandLogger(io: CliIo, level: LogLevel, command: string): Logger {
  const pretty = io.terminal !== undefined;
  const colors = pretty && (io.env['NO_COLOR'] ?? '') === '';
  return createLogger({ level, destination: { write: io.stderr }, base: { command }, format: pretty ? 'pretty' : 'json', colors });
}
