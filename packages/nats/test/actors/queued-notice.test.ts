/**
 * What a task waiting on the queue is said to wait for, from the live workers: no worker hosting
 * its agent (with the command that starts one), only workers of other graphs (named, with their
 * graphs), workers of its graph that are all busy, or workers about to take it.
 */
import { describe, expect, it } from 'vitest';
import { describeQueued } from '../../src/index.js';
import type { WorkerLoad } from '../../src/index.js';

const COMMAND = 'troupe worker team.yaml --nats nats://127.0.0.1:4222';
const wanted = { agent: 'researcher', graph: 'aaaaaaaaaaaaaaaa', command: COMMAND };

function worker(id: string, overrides: Partial<WorkerLoad> = {}): WorkerLoad {
  return { id, agents: ['researcher'], graph: 'aaaaaaaaaaaaaaaa', running: 0, capacity: 4, taken: 0, ended: 0, parked: 0, deadLettered: 0, ...overrides };
}

describe('describeQueued', () => {
  it('names the command to start a worker when none hosts the agent', () => {
    expect(describeQueued([], wanted)).toBe(`no live worker hosts "researcher"; start one: ${COMMAND}`);
    expect(describeQueued([worker('w1', { agents: ['critic'] })], wanted)).toBe(`no live worker hosts "researcher"; start one: ${COMMAND}`);
  });

  it('names the workers of other graphs that host an agent of that name', () => {
    expect(describeQueued([worker('w1', { graph: 'bbbbbbbbbbbbbbbb' })], wanted)).toBe(
      `no live worker hosts "researcher" of this graph (w1 runs graph bbbbbbbbbbbbbbbb: another graph file, or another version of it); start one: ${COMMAND}`,
    );
  });

  it('says when every worker of its graph is busy, and counts them otherwise', () => {
    expect(describeQueued([worker('w1', { running: 4 }), worker('w2', { running: 4 })], wanted)).toBe('2 live workers host "researcher", all busy');
    expect(describeQueued([worker('w1', { running: 4 }), worker('w2', { running: 1 })], wanted)).toBe('2 live workers host "researcher"');
    expect(describeQueued([worker('w1')], wanted)).toBe('1 live worker hosts "researcher"');
  });

  it("counts any graph's worker when the graph is unknown", () => {
    expect(describeQueued([worker('w1', { graph: 'bbbbbbbbbbbbbbbb' })], { ...wanted, graph: undefined })).toBe('1 live worker hosts "researcher"');
  });
});
