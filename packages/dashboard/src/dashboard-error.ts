import { TroupeError } from '@troupe/core';

/** The codes of the errors the dashboard's API answers with (`{ error: { code, message } }`). */
export const DashboardErrorCode = {
  /** No run with that id in the store the dashboard reads. */
  UnknownRun: 'unknown_run',
  /** The approval or answer is for a call nobody waits for any more (answered elsewhere, or never asked). */
  Stale: 'stale_request',
  /** The run has ended: there is nothing to act on. */
  RunEnded: 'run_ended',
  /** The request is not what the endpoint takes (bad JSON, a missing field, an unknown decision). */
  BadRequest: 'bad_request',
  /** No token, or the wrong one. */
  Unauthorized: 'unauthorized',
  /** A POST from another origin. */
  Forbidden: 'forbidden',
  /** The dashboard was started without a graph file: it cannot start or resume runs. */
  NoGraph: 'no_graph',
  /** The action cannot reach the run where it runs (another process that does not take it). */
  Unsupported: 'unsupported',
  /** No such endpoint or file. */
  NotFound: 'not_found',
} as const;

/** One of the {@link DashboardErrorCode} values. */
export type DashboardErrorCode = (typeof DashboardErrorCode)[keyof typeof DashboardErrorCode];

/** The HTTP status each of the dashboard's own codes is answered with. */
const STATUS: Record<DashboardErrorCode, number> = {
  unknown_run: 404,
  stale_request: 409,
  run_ended: 409,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  no_graph: 409,
  unsupported: 409,
  not_found: 404,
};

/** Runtime codes that mean the request does not fit the run's state: a conflict, not a server failure. */
const CONFLICTS = new Set(['run_not_waiting', 'ambiguous_target', 'run_finished', 'unknown_actor', 'run_already_answered', 'run_still_hosted']);

/** An error the API answers with a 4xx and its code. */
export class DashboardError extends TroupeError {}

/** The HTTP status for an error thrown while answering a request: 4xx for bad requests and conflicts, else 500. */
export function httpStatusOf(error: unknown): number {
  if (!(error instanceof TroupeError)) return 500;
  if (Object.hasOwn(STATUS, error.code)) return STATUS[error.code as DashboardErrorCode];
  return CONFLICTS.has(error.code) ? 409 : 500;
}
