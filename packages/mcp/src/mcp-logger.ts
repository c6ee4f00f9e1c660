/**
 * Where the adapter writes what it sees: servers' stderr lines and log messages, connections,
 * crashes and reconnections. pino's `Logger` fits as is.
 *
 * Contract: methods never throw and return promptly (they are called from stream handlers).
 */
export interface McpLogger {
  debug(data: Record<string, unknown>, message: string): void;
  info(data: Record<string, unknown>, message: string): void;
  warn(data: Record<string, unknown>, message: string): void;
  error(data: Record<string, unknown>, message: string): void;
}

/** A logger that drops everything (the default). */
export const silentMcpLogger: McpLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
