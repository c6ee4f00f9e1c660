/**
 * DormantActors, the hibernated actors of a host by run and path: a run's lone sleeping actor is
 * kept without a map, and a second one of the same run is found as well as the first through every
 * change (added, replaced, deleted). A DormantActor keeps its request without the stale snapshot,
 * answers for its outcome with one promise, and hands that outcome to the actor woken in its place.
 */
import { createRunId, parseAgentPath, type AgentResult, type AgentSnapshot } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { DormantActor, DormantActors } from '../../src/system/dormant-actors.js';
import { newOutcome } from '../../src/system/hibernation.js';
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

  it('answers with the outcome it was given, and hands it on', async () => {
    const outcome = newOutcome();
    const dormant = new DormantActor(request(runA, 'lead'), transport, outcome);
    expect(dormant.result()).toBe(outcome.promise);
    const handed = dormant.outcome();
    expect(handed?.promise).toBe(outcome.promise);
    const result = { text: 'done' } as AgentResult;
    handed?.resolve(result);
    await expect(dormant.result()).resolves.toBe(result);
  });

  it('makes its outcome when first asked for, and hands none on before', async () => {
    const dormant = new DormantActor(request(runA, 'lead'), transport, undefined);
    expect(dormant.outcome()).toBeUndefined();
    const promise = dormant.result();
    expect(dormant.result()).toBe(promise);
    const error = new Error('store down');
    dormant.outcome()?.reject(error);
    await expect(promise).rejects.toBe(error);
  });
});
