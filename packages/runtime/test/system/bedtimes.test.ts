/**
 * Bedtimes, when a host's waiting actors go to sleep: after `afterMs`, or at once beyond
 * `maxWaiting` awake and waiting, the one that has waited longest first; an actor that goes on, or
 * leaves, is forgotten (its timer cleared), and without either limit none sleeps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Bedtimes } from '../../src/system/bedtimes.js';
import type { ActorSlot } from '../../src/system/actor-slot.js';

const slot = (name: string): ActorSlot => ({ name, bedtime: undefined }) as unknown as ActorSlot;
const names = (slept: ActorSlot[]): string[] => slept.map((s) => (s as unknown as { name: string }).name);

afterEach(() => {
  vi.useRealTimers();
});

describe('Bedtimes', () => {
  it('puts the longest-waiting to sleep beyond maxWaiting, and forgets one that goes on', () => {
    const slept: ActorSlot[] = [];
    const bedtimes = new Bedtimes({ maxWaiting: 2 }, (s) => slept.push(s));
    const [a, b, c, d] = [slot('a'), slot('b'), slot('c'), slot('d')];
    bedtimes.track(a, true);
    bedtimes.track(b, true);
    bedtimes.track(b, true);
    expect(slept).toEqual([]);
    bedtimes.track(c, true);
    expect(names(slept)).toEqual(['a']);
    // b goes on: c and d wait, within the limit.
    bedtimes.track(b, false);
    bedtimes.track(d, true);
    expect(names(slept)).toEqual(['a']);
    bedtimes.track(a, true);
    expect(names(slept)).toEqual(['a', 'c']);
  });

  it('puts an actor to sleep once it has waited afterMs, unless it goes on or leaves first', () => {
    vi.useFakeTimers();
    const slept: ActorSlot[] = [];
    const bedtimes = new Bedtimes({ afterMs: 1000 }, (s) => slept.push(s));
    const [a, b, c] = [slot('a'), slot('b'), slot('c')];
    bedtimes.track(a, true);
    bedtimes.track(b, true);
    bedtimes.track(c, true);
    vi.advanceTimersByTime(500);
    bedtimes.track(b, false);
    bedtimes.forget(c);
    vi.advanceTimersByTime(500);
    expect(names(slept)).toEqual(['a']);
    expect([a.bedtime, b.bedtime, c.bedtime]).toEqual([undefined, undefined, undefined]);
    bedtimes.track(b, true);
    bedtimes.clear();
    vi.advanceTimersByTime(2000);
    expect(names(slept)).toEqual(['a']);
  });

  it('puts none to sleep without a limit', () => {
    vi.useFakeTimers();
    const slept: ActorSlot[] = [];
    const bedtimes = new Bedtimes({}, (s) => slept.push(s));
    for (const name of ['a', 'b', 'c']) bedtimes.track(slot(name), true);
    vi.advanceTimersByTime(60_000);
    expect(slept).toEqual([]);
  });
});
