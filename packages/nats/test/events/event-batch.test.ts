/**
 * decodeEventBatch: a batch is a JSON array of events (or one bare event); a message that is no
 * JSON, or an event without its type, run, path or sequence, is a `corrupt_run_store` error whose
 * message names the message (given as a string or made only on error) and the event.
 */
import { RunStoreErrorCode } from '@troupe/runtime';
import { describe, expect, it } from 'vitest';
import { decodeEventBatch, encodeEventBatch } from '../../src/events/event-batch.js';

const encoder = new TextEncoder();
const event = (seq: number): Record<string, unknown> => ({ type: 'turn_start', runId: 'run_1', agentPath: 'lead', seq, turn: seq });

describe('decodeEventBatch', () => {
  it('reads a batch in order, and a bare event', () => {
    const batch = encodeEventBatch([event(1), event(2)].map((e) => JSON.stringify(e)));
    expect(decodeEventBatch(encoder.encode(batch), 'a batch')).toEqual([event(1), event(2)]);
    expect(decodeEventBatch(encoder.encode(JSON.stringify(event(3))), 'a bare event')).toEqual([event(3)]);
  });

  it('names the message and the event that fails, and makes a lazy name only then', () => {
    let named = 0;
    const what = (): string => {
      named += 1;
      return 'message 7 of the events stream';
    };
    expect(decodeEventBatch(encoder.encode(JSON.stringify([event(1)])), what)).toHaveLength(1);
    expect(named).toBe(0);
    const broken = JSON.stringify([event(1), { type: 'turn_start', runId: 'run_1', agentPath: 'lead' }]);
    expect(() => decodeEventBatch(encoder.encode(broken), what)).toThrow(
      expect.objectContaining({ code: RunStoreErrorCode.Corrupt, message: 'message 7 of the events stream (event 2) has no number "seq"' }),
    );
    expect(() => decodeEventBatch(encoder.encode('[{'), 'a message on troupe.x.run.r.events')).toThrow(
      expect.objectContaining({ code: RunStoreErrorCode.Corrupt, message: 'a message on troupe.x.run.r.events is not valid JSON' }),
    );
    expect(() => decodeEventBatch(encoder.encode('[1]'), 'a batch')).toThrow(expect.objectContaining({ message: 'a batch (event 1) is not a JSON object' }));
  });
});
