/**
 * mergeCheckpoint (the store's group commit of an actor's checkpoints): a later checkpoint folded
 * into one not written yet leaves the head and history that writing both one after the other would
 * leave — the later head; messages appended after, or overlapping, the earlier ones; a history
 * rewritten from before them replacing them — and one that starts past the earlier messages is
 * refused, so no message between them is lost. The agent's own message array is never changed.
 */
import { Agent, userMessage, type AgentSnapshot } from '@troupe/core';
import { createScriptedProvider } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { mergeCheckpoint, pendingCheckpoint } from '../../src/store/pending-checkpoint.js';

const base = new Agent({ provider: createScriptedProvider([]), model: 'test', path: 'lead' }).checkpoint().head;
const head = (seq: number): AgentSnapshot => ({ ...base, seq });
const m = (i: number) => userMessage(`m${i}`, i);

describe('mergeCheckpoint', () => {
  it('appends the messages of a checkpoint that goes on where the pending one ends, and takes its head', () => {
    const added = [m(0), m(1)];
    const pending = pendingCheckpoint({ head: head(1), from: 0, added });
    expect(mergeCheckpoint(pending, { head: head(2), from: 2, added: [m(2)] })).toBe(true);
    expect(pending).toEqual({ head: head(2), from: 0, added: [m(0), m(1), m(2)] });
    expect(added).toEqual([m(0), m(1)]);
  });

  it('replaces the messages a later checkpoint overlaps', () => {
    const pending = pendingCheckpoint({ head: head(1), from: 3, added: [m(3), m(4)] });
    expect(mergeCheckpoint(pending, { head: head(2), from: 4, added: [m(40), m(5)] })).toBe(true);
    expect(pending).toEqual({ head: head(2), from: 3, added: [m(3), m(40), m(5)] });
  });

  it('takes a history rewritten from before the pending messages as it is', () => {
    const pending = pendingCheckpoint({ head: head(1), from: 5, added: [m(5)] });
    expect(mergeCheckpoint(pending, { head: head(2), from: 0, added: [m(10)] })).toBe(true);
    expect(pending).toEqual({ head: head(2), from: 0, added: [m(10)] });
  });

  it('refuses a checkpoint that starts past the pending messages, changing nothing', () => {
    const pending = pendingCheckpoint({ head: head(1), from: 0, added: [m(0)] });
    expect(mergeCheckpoint(pending, { head: head(2), from: 2, added: [m(2)] })).toBe(false);
    expect(pending).toEqual({ head: head(1), from: 0, added: [m(0)] });
  });
});
