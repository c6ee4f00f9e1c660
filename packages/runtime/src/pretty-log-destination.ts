import type { DestinationStream } from 'pino';

/** pino's numeric levels and how a person reads them. */
const LEVELS: ReadonlyMap<number, { label: string; color: string }> = new Map([
  [10, { label: 'TRACE', color: '\u001b[90m' }],
  [20, { label: 'DEBUG', color: '\u001b[36m' }],
  [30, { label: 'INFO', color: '\u001b[32m' }],
  [40, { label: 'WARN', color: '\u001b[33m' }],
  [50, { label: 'ERROR', color: '\u001b[31m' }],
  [60, { label: 'FATAL', color: '\u001b[35m' }],
]);
const DIM = '\u001b[2m';
const RESET = '\u001b[0m';
/** Fields every line has, shown in their own places rather than as `key=value`. */
const OWN_FIELDS = new Set(['level', 'time', 'msg', 'err']);

/** Options of {@link prettyLogDestination}. */
export interface PrettyLogOptions {
  /** ANSI colours for the level and the fields. Default false. */
  colors?: boolean;
}

/**
 * A pino destination that turns each JSON line into one line a person reads at a terminal:
 * `14:02:07.312 WARN  mcp server exited command=run server=github code=1`, the stack of an error
 * logged at `error` or `fatal` indented below it. It works on the line pino has already serialized, so redaction holds; runs
 * in the calling thread (no worker, nothing to start). A line that is not JSON is passed on as is.
 */
export function prettyLogDestination(destination: DestinationStream, options: PrettyLogOptions = {}): DestinationStream {
  return {
    write: (line: string) => {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        destination.write(line);
        return;
      }
      destination.write(formatLogRecord(record, options.colors === true));
    },
  };
}

/** One log record as a line (and the stack of its `err`, indented), newline included. */
export function formatLogRecord(record: Readonly<Record<string, unknown>>, colors: boolean): string {
  const paint = (color: string, text: string): string => (colors ? `${color}${text}${RESET}` : text);
  const level = LEVELS.get(Number(record['level'])) ?? { label: String(record['level']), color: '' };
  const time = typeof record['time'] === 'number' ? clockTime(new Date(record['time'])) : '';
  const fields = Object.entries(record)
    .filter(([key]) => !OWN_FIELDS.has(key))
    .map(([key, value]) => `${key}=${fieldValue(value)}`);
  const err = errorOf(record['err']);
  if (err?.message !== undefined) fields.push(`err=${fieldValue(err.message)}`);
  const message = typeof record['msg'] === 'string' ? record['msg'] : '';
  const head = [paint(DIM, time), paint(level.color, level.label.padEnd(5)), message, fields.length === 0 ? '' : paint(DIM, fields.join(' '))].filter(
    (part) => part !== '',
  );
  // A stack helps with an error; on a warning it is noise.
  const stack =
    err?.stack === undefined || Number(record['level']) < 50
      ? ''
      : `\n${err.stack
          .split('\n')
          .slice(1)
          .map((frame) => `    ${frame.trim()}`)
          .join('\n')}`;
  return `${head.join(' ')}${stack}\n`;
}

function clockTime(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** A field's value: a string as is when it reads as one word, anything else as JSON. */
function fieldValue(value: unknown): string {
  if (typeof value === 'string' && /^[^\s"=]+$/.test(value)) return value;
  return JSON.stringify(value) ?? String(value);
}

function errorOf(value: unknown): { message?: string; stack?: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { message, stack } = value as { message?: unknown; stack?: unknown };
  return { ...(typeof message === 'string' ? { message } : {}), ...(typeof stack === 'string' ? { stack } : {}) };
}
