import type { ErrorInfo, RunStopReason } from '@troupe/core';
import type { RunResult } from '../system/run-handle.js';

/** What another process may ask of the process running a run, over its control socket. */
export type RunControlRequest =
  /** Abort the run; the answer is followed by a {@link RunControlEnd} once the run has ended. */
  | { type: 'abort' }
  /** Steer the actor at `path` (default: the entry). */
  | { type: 'steer'; message: string; path?: string };

/** The answer to a request: done, or why not. */
export type RunControlAnswer = { ok: true } | { ok: false; error: ErrorInfo };

/** Sent, after the answer to an abort, when the run has ended. */
export interface RunControlEnd {
  ended: { status: RunResult['status']; stopReason?: RunStopReason; error?: ErrorInfo };
}

/** The longest line either side reads: a steering message is text, not a file. */
export const MAX_CONTROL_LINE = 1 << 20;

/** The request a line holds, or a message saying why it is none. */
export function parseControlRequest(line: string): RunControlRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null) return 'not an object';
  const { type, message, path } = value as Record<string, unknown>;
  if (type === 'abort') return { type };
  if (type !== 'steer') return `unknown request type ${JSON.stringify(type)}`;
  if (typeof message !== 'string' || message.trim() === '') return 'a steer needs a non-empty message';
  if (path !== undefined && typeof path !== 'string') return 'path must be a string';
  return path === undefined ? { type, message } : { type, message, path };
}
