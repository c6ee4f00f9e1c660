/**
 * RunFeed numbers a run's events in arrival order and hands a follower exactly the events after
 * the seq it has, then the new ones: the basis of a lossless, duplicate-free SSE resume.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '@troupe/core';
import { RunFeed, type FeedEvent } from '../src/index.js';

const event = (n: number): AgentEvent => ({ type: 'turn_start', turn: n, runId: 'r', agentPath: 'a', seq: n, ts: n }) as AgentEvent;

describe('RunFeed', () => {
  it('replays what follows the given seq, then goes on live, each event once', () => {
    const feed = new RunFeed();
    for (let n = 0; n < 4; n++) feed.push(event(n));
    const seen: FeedEvent[] = [];
    const stop = feed.follow(1, (item) => seen.push(item));
    feed.push(event(4));
    stop();
    feed.push(event(5));
    expect(seen.map((item) => item.seq)).toEqual([2, 3, 4]);
    expect(feed.size).toBe(6);
  });

  it('gives everything to a follower from -1, and stops its source on close', () => {
    let stopped = false;
    const feed = new RunFeed(() => {
      stopped = true;
    });
    feed.push(event(0));
    const seen: number[] = [];
    feed.follow(-1, (item) => seen.push(item.seq));
    feed.close();
    feed.push(event(1));
    expect(seen).toEqual([0]);
    expect(stopped).toBe(true);
  });
});
