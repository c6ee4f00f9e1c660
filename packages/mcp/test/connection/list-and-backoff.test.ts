/**
 * Proves the pagination helper (follows cursors to the end, refuses a repeated cursor) and the
 * reconnect policy (no wait after one failure, then doubling waits up to the cap on an injected
 * clock, reset by a success).
 */
import { describe, expect, it } from 'vitest';
import { listAll } from '../../src/connection/list-all.js';
import { ReconnectPolicy } from '../../src/connection/reconnect-policy.js';

describe('listAll', () => {
  it('follows cursors until the last page', async () => {
    const pages: Record<string, { items: number[]; nextCursor?: string }> = {
      start: { items: [1, 2], nextCursor: 'b' },
      b: { items: [3], nextCursor: 'c' },
      c: { items: [4] },
    };
    const seen: (string | undefined)[] = [];
    expect(await listAll(async (cursor) => (seen.push(cursor), pages[cursor ?? 'start'] as { items: number[] }))).toEqual([1, 2, 3, 4]);
    expect(seen).toEqual([undefined, 'b', 'c']);
  });

  it('refuses a server that repeats a cursor', async () => {
    await expect(listAll(async () => ({ items: [1], nextCursor: 'same' }))).rejects.toThrow('the server repeated the cursor "same" while paginating');
  });
});

describe('ReconnectPolicy', () => {
  it('waits nothing after one failure, then doubles up to the cap', () => {
    let now = 0;
    const policy = new ReconnectPolicy({ baseMs: 100, maxMs: 300 }, () => now);
    policy.failed('a');
    expect(policy.remainingMs()).toBe(0);
    policy.failed('b');
    expect(policy.remainingMs()).toBe(100);
    now = 60;
    expect(policy.remainingMs()).toBe(40);
    policy.failed('c');
    expect(policy.remainingMs()).toBe(200);
    policy.failed('d');
    policy.failed('e');
    expect(policy.remainingMs()).toBe(300);
    expect(policy.lastError).toBe('e');
    policy.succeeded();
    expect(policy.remainingMs()).toBe(0);
  });
});
