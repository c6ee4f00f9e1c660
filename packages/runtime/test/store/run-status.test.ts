/**
 * Proves the run statuses are listed once, with which of them have ended: what `troupe runs
 * --status` accepts and what `troupe runs prune` may delete (never a running, waiting or
 * interrupted run).
 */
import { describe, expect, it } from 'vitest';
import { hasEnded, isRunStatus, RUN_STATUSES } from '../../src/index.js';

describe('run statuses', () => {
  it('lists every status, and says which have ended', () => {
    expect(RUN_STATUSES).toEqual(['running', 'waiting', 'interrupted', 'done', 'failed', 'aborted']);
    expect(RUN_STATUSES.filter(hasEnded)).toEqual(['done', 'failed', 'aborted']);
  });

  it('recognises status names, not other keys', () => {
    expect(isRunStatus('waiting')).toBe(true);
    expect(isRunStatus('finished')).toBe(false);
    expect(isRunStatus('toString')).toBe(false);
  });
});
