/**
 * `latestWrite` writes only the newest of the values given within one turn of the event loop or
 * during a write in flight (a run's progress was written once per usage and turn event, each
 * write superseded by the next within the same tick), never two writes at once, and `settle`
 * resolves once the newest value is written, also after a failed write.
 */
import { describe, expect, it } from 'vitest';
import { latestWrite } from '../../src/system/latest-write.js';

describe('latestWrite', () => {
  it('writes the newest of the values given in one turn once', async () => {
    const written: number[] = [];
    const write = latestWrite(async (value: number) => void written.push(value));
    write(1);
    write(2);
    write(3);
    expect(written).toEqual([]);
    await write.settle();
    expect(written).toEqual([3]);
  });

  it('holds values given during a write in flight and writes the newest after it, one write at a time', async () => {
    const written: number[] = [];
    let inFlight = 0;
    let most = 0;
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const write = latestWrite(async (value: number) => {
      inFlight++;
      most = Math.max(most, inFlight);
      if (value === 1) {
        started();
        await first;
      }
      written.push(value);
      inFlight--;
    });
    write(1);
    await firstStarted;
    write(2);
    write(3);
    release();
    await write.settle();
    expect(written).toEqual([1, 3]);
    expect(most).toBe(1);
  });

  it('reports a failed write and goes on with the next value', async () => {
    const errors: unknown[] = [];
    const written: number[] = [];
    const write = latestWrite(
      async (value: number) => {
        if (value === 1) throw new Error('disk full');
        written.push(value);
      },
      (error) => errors.push(error),
    );
    write(1);
    await write.settle();
    write(2);
    await write.settle();
    expect(errors).toHaveLength(1);
    expect(written).toEqual([2]);
  });

  it('drops the value that waits, and says when it is idle', async () => {
    const written: number[] = [];
    const write = latestWrite(async (value: number) => void written.push(value));
    expect(write.isIdle()).toBe(true);
    write(1);
    expect(write.isIdle()).toBe(false);
    await write.drop();
    expect(written).toEqual([]);
    expect(write.isIdle()).toBe(true);
  });

  it('writes the newest value of each of many writers given in one turn, each once, at the next turn', async () => {
    const written: string[] = [];
    const writers = ['a', 'b', 'c'].map((name) => latestWrite(async (value: number) => void written.push(`${name}${value}`)));
    for (const write of writers) {
      write(1);
      write(2);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (const write of writers) await write.settle();
    expect(written).toEqual(['a2', 'b2', 'c2']);
  });

  it('writes at once when settled before its turn, and not again at the turn', async () => {
    const written: number[] = [];
    const write = latestWrite(async (value: number) => void written.push(value));
    write(1);
    await write.settle();
    expect(written).toEqual([1]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(written).toEqual([1]);
    expect(write.isIdle()).toBe(true);
  });

  it('settles at once when nothing was given', async () => {
    const write = latestWrite(async () => undefined);
    await expect(write.settle()).resolves.toBeUndefined();
  });
});
