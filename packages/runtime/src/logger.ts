import { pino, type DestinationStream, type Logger } from 'pino';
import { prettyLogDestination } from './pretty-log-destination.js';

/** Log levels, least to most verbose after `silent`. */
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Keys whose values never reach a log line, at any of the first four levels of nesting. */
export const REDACTED_KEYS = [
  'apiKey',
  'api_key',
  'authorization',
  'Authorization',
  'token',
  'accessToken',
  'refreshToken',
  'bearerToken',
  'password',
  'secret',
  'cookie',
] as const;

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Default `info`. */
  level?: LogLevel;
  /** Where lines go. Default: standard error (fd 2), written synchronously so nothing is lost on exit. */
  destination?: DestinationStream;
  /** Fields on every line (`{ component: 'cli' }`). */
  base?: Record<string, unknown>;
  /**
   * `json` (default): one JSON object per line, for machines and log collectors. `pretty`: one
   * line a person reads (`14:02:07.312 WARN  message key=value`), for a terminal; formatted in
   * this thread, no transport worker.
   */
  format?: 'json' | 'pretty';
  /** With `pretty`: colour the level and the fields (ANSI). Default false. */
  colors?: boolean;
}

/** The redaction paths: each key at the top level and up to three objects deep. */
function redactPaths(): string[] {
  return REDACTED_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]);
}

/**
 * A pino logger writing JSON lines (or, with `format: 'pretty'`, lines for a person) to standard
 * error (stdout stays free for program output), with the values of secret-looking keys
 * (`apiKey`, `authorization`, `token`, `password`…) replaced by `[redacted]` in either format.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const json = options.destination ?? pino.destination({ fd: 2, sync: true });
  const destination = options.format === 'pretty' ? prettyLogDestination(json, { colors: options.colors === true }) : json;
  return pino(
    {
      level: options.level ?? 'info',
      base: options.base ?? null,
      redact: { paths: redactPaths(), censor: '[redacted]' },
    },
    destination,
  );
}

/** Whether `value` names a log level. */
export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}
