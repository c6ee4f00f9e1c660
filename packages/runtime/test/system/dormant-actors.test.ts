/**
 * DormantActors, the hibernated actors of a host by run and path: a run's lone sleeping actor is
 * kept without a map, and a second one of the same run is found as well as the first through every
 * change (added, replaced, deleted). A DormantActor keeps its request without the stale snapshot,
 * keeps who waits for its outcome (no promise of its own), and hands them to the actor woken in its place.
 */
import { createRunId, parseAgentPath, type AgentResult, type AgentSnapshot } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { DormantActor, DormantActors } from '../../src/system/dormant-actors.js';
import { newOutcome } from '../../src/system/outcome.js';
import type { SpawnRequest, Transport } from '../../src/system/transport.js';

const transport = {} as Transport;
const runA = createRunId(1);
const runB = createRunId(2);
const request = (runId: typeof runA, path: string, snapshot?: AgentSnapshot): SpawnRequest => ({
  runId,
  path: parseAgentPath(path),
  agent: 'a',
  depth: 0,
  ...(snapshot === undefined ? {} : { snapshot }),
});

describe('DormantActors', () => {
  it('finds each sleeping actor by run and path, one or several per run', () => {
    const dormant = new DormantActors();
    const lead = new DormantActor(request(runA, 'lead'), transport, undefined);
    const helper = new DormantActor(request(runA, 'lead/helper#1'), transport, undefined);
    const other = new DormantActor(request(runB, 'lead'), transport, undefined);
    dormant.add(lead);
    dormant.add(other);
    expect(dormant.get(runA, 'lead')).toBe(lead);
    expect(dormant.get(runA, 'lead/helper#1')).toBeUndefined();
    dormant.add(helper);
    expect([dormant.get(runA, 'lead'), dormant.get(runA, 'lead/helper#1'), dormant.get(runB, 'lead')]).toEqual([lead, helper, other]);
    dormant.delete(runA, 'lead');
    expect([dormant.get(runA, 'lead'), dormant.get(runA, 'lead/helper#1')]).toEqual([undefined, helper]);
    dormant.delete(runA, 'lead/helper#1');
    expect(dormant.get(runA, 'lead/helper#1')).toBeUndefined();
    // A lone one replaced at its path, and deleted only at its own.
    const again = new DormantActor(request(runB, 'lead'), transport, undefined);
    dormant.add(again);
    dormant.delete(runB, 'elsewhere');
    expect(dormant.get(runB, 'lead')).toBe(again);
    dormant.clear();
    expect(dormant.get(runB, 'lead')).toBeUndefined();
  });
});

describe('DormantActor', () => {
  it('keeps its request without the stale snapshot it was built from', () => {
    const fresh = request(runA, 'lead');
    expect(new DormantActor(fresh, transport, undefined).request).toBe(fresh);
    const restored = new DormantActor(request(runA, 'lead', {} as AgentSnapshot), transport, undefined);
    expect(restored.request).toEqual(fresh);
    expect('snapshot' in restored.request).toBe(false);
  });

  it('keeps the waiter it was given as it is, and hands it on', () => {
    const outcome = newOutcome();
    const dormant = new DormantActor(request(runA, 'lead'), transport, outcome);
    expect(dormant.waiters()).toBe(outcome);
  });

  it('keeps no waiters until one comes, then one as it is, and several as a list', async () => {
    const dormant = new DormantActor(request(runA, 'lead'), transport, undefined);
    expect(dormant.waiters()).toBeUndefined();
    const first = newOutcome();
    dormant.whenEnded(first);
    expect(dormant.waiters()).toBe(first);
    const second = newOutcome();
    dormant.whenEnded(second);
    const result = { text: 'done' } as AgentResult;
    dormant.waiters()?.resolve(result);
    await expect(Promise.all([first.promise, second.promise])).resolves.toEqual([result, result]);
  });

  it('tells every waiter of a failure', async () => {
    const dormant = new DormantActor(request(runA, 'lead'), transport, undefined);
    const told: unknown[] = [];
    dormant.whenEnded({ resolve: () => told.push('resolved'), reject: (error) => told.push(error) });
    const outcome = newOutcome();
    dormant.whenEnded(outcome);
    const error = new Error('store down');
    dormant.waiters()?.reject(error);
    await expect(outcome.promise).rejects.toBe(error);
    expect(told).toEqual([error]);
  });
});
