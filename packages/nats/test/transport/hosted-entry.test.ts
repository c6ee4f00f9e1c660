/**
 * A hosted actor's entry keeps its record writes in call order (a `waiting` record never lands
 * after the `ended` one that follows it), a failed write is reported and does not stop later
 * ones, a write run `afterWrites` waits for the earlier ones without holding up later ones, and
 * every record carries `fromQueue` only for an actor hosted for a task taken from the queue.
 */
import { parseAgentPath, parseRunId } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import type { ControlListener } from '../../src/actors/control-line.js';
import { HostedEntry } from '../../src/transport/hosted-entry.js';

const request = { runId: parseRunId('run_entry'), path: parseAgentPath('lead'), agent: 'lead', depth: 0 };
const listener: ControlListener = { attach: () => undefined, close: () => undefined };

/** A write that resolves when `open` is called, noting when it starts and ends in `log`. */
function gatedWrite(log: string[], name: string): { write: () => Promise<void>; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    write: async () => {
      log.push(`${name} start`);
      await gate;
      log.push(`${name} end`);
    },
    open: () => open(),
  };
}

describe('HostedEntry', () => {
  it('runs chained writes one after another, in call order', async () => {
    const entry = new HostedEntry(request, listener, {}, false);
    const log: string[] = [];
    const first = gatedWrite(log, 'waiting');
    const second = gatedWrite(log, 'ended');
    void entry.chain(first.write, undefined);
    const last = entry.chain(second.write, undefined);
    await Promise.resolve();
    second.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['waiting start']);
    first.open();
    await last;
    expect(log).toEqual(['waiting start', 'waiting end', 'ended start', 'ended end']);
    await expect(entry.written).resolves.toBeUndefined();
  });

  it('reports a failed write and goes on with the next', async () => {
    const entry = new HostedEntry(request, listener, {}, false);
    const errors: unknown[] = [];
    const written: string[] = [];
    void entry.chain(
      () => Promise.reject(new Error('bucket gone')),
      (error) => errors.push(error),
    );
    await entry.chain(
      async () => void written.push('next'),
      (error) => errors.push(error),
    );
    expect(errors.map((error) => (error as Error).message)).toEqual(['bucket gone']);
    expect(written).toEqual(['next']);
  });

  it('runs a write after the earlier ones without making later ones wait for it', async () => {
    const entry = new HostedEntry(request, listener, {}, false);
    const log: string[] = [];
    const earlier = gatedWrite(log, 'running');
    const end = gatedWrite(log, 'end');
    void entry.chain(earlier.write, undefined);
    const ended = entry.afterWrites(end.write);
    const later = entry.chain(async () => void log.push('later'), undefined);
    earlier.open();
    await later;
    expect(log).toEqual(['running start', 'running end', 'end start', 'later']);
    end.open();
    await ended;
    expect(log.at(-1)).toBe('end end');
  });

  it('marks the records of an actor taken from the queue fromQueue, and only those', () => {
    expect(new HostedEntry(request, listener, {}, true).base({ graph: 'g1' })).toEqual({ agent: 'lead', depth: 0, graph: 'g1', fromQueue: true });
    expect(new HostedEntry(request, listener, {}, false).base({})).toEqual({ agent: 'lead', depth: 0 });
  });
});
