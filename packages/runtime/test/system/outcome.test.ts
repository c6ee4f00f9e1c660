/**
 * OutcomeWaiters, the waiters of one actor's outcome: each is told once, in the order they came,
 * a waiter that comes after the outcome is told too (in a microtask, as a promise's would be), and
 * a lone waiter is handed on as it is (what a hibernated actor keeps).
 */
import type { AgentResult } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { newOutcome, OutcomeWaiters, type OutcomeWaiter } from '../../src/system/outcome.js';

const result = { text: 'done' } as AgentResult;

function recorder(name: string, told: string[]): OutcomeWaiter {
  return { resolve: (r) => told.push(`${name}:${r.text}`), reject: (error) => told.push(`${name}:${String(error)}`) };
}

describe('OutcomeWaiters', () => {
  it('tells each waiter once, in the order they came, and the first outcome stands', () => {
    const told: string[] = [];
    const waiters = new OutcomeWaiters();
    waiters.add(recorder('a', told));
    waiters.add(recorder('b', told));
    waiters.resolve(result);
    waiters.reject(new Error('late'));
    waiters.resolve({ text: 'again' } as AgentResult);
    expect(told).toEqual(['a:done', 'b:done']);
  });

  it('tells a waiter that comes after the outcome, in a microtask', async () => {
    const told: string[] = [];
    const waiters = new OutcomeWaiters();
    waiters.reject(new Error('store down'));
    waiters.add(recorder('late', told));
    expect(told).toEqual([]);
    await Promise.resolve();
    expect(told).toEqual(['late:Error: store down']);
  });

  it('joins waiters without a list for one, and hands a lone one on as it is', async () => {
    const first = newOutcome();
    expect(OutcomeWaiters.join(undefined, first)).toBe(first);
    const second = newOutcome();
    const both = OutcomeWaiters.join(first, second);
    expect(both).toBeInstanceOf(OutcomeWaiters);
    expect(OutcomeWaiters.of(both)).toBe(both);
    expect(OutcomeWaiters.of(first).compact()).toBe(first);
    expect((both as OutcomeWaiters).compact()).toBe(both);
    both.resolve(result);
    await expect(Promise.all([first.promise, second.promise])).resolves.toEqual([result, result]);
  });
});
