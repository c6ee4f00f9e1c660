import type { ErrorInfo, RunStopReason } from '@troupe/core';
import type { RunResult } from '../system/run-handle.js';

/** What another process may ask of the process running a run, over its control socket. */
export type RunControlRequest =
  /** Abort the run; the answer is followed by a {@link RunControlEnd} once the run has ended. */
  | { type: 'abort' }
  /**
   * Abort the actor at `path` and the actors below it; the answer comes once the abort is sent.
   * At the entry's path it is an `abort` of the run. A type of its own, not a path on `abort`: a
   * process of an older troupe would take that for a whole-run abort, and answers this with
   * `bad_request` instead.
   */
  | { type: 'abortActor'; path: string }
  /** Steer the actor at `path` (default: the entry). */
  | { type: 'steer'; message: string; path?: string }
  /** Queue a follow-up for the actor at `path` (default: the entry), taken once it would otherwise end. */
  | { type: 'followUp'; message: string; path?: string };

/** The requests that address one actor (not the whole run). */
export type RunControlActorRequest = Extract<RunControlRequest, { type: 'abortActor' | 'steer' | 'followUp' }>;

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
  if (path !== undefined && typeof path !== 'string') return 'path must be a string';
  if (type === 'abortActor') return path === undefined || path === '' ? 'an abortActor needs the path of the actor' : { type, path };
  if (type !== 'steer' && type !== 'followUp') return `unknown request type ${JSON.stringify(type)}`;
  if (typeof message !== 'string' || message.trim() === '') return `a ${type} needs a non-empty message`;
  return path === undefined ? { type, message } : { type, message, path };
}
