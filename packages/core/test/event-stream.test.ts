/**
 * The agent's event stream makes its rxjs subject on the first subscription and still behaves as
 * a subject would: events published before anyone listened are not replayed (unless kept for the
 * run), a subscriber gets the events after it subscribed with an increasing `seq`, and once the
 * stream completed a new subscriber (after the kept events, when kept) is completed at once.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentPath, RunId } from '../src/index.js';
import { EventStream } from '../src/event-stream.js';

const RUN = 'run-1' as RunId;
const PATH = 'agent' as AgentPath;

function collect(stream: EventStream): { events: AgentEvent[]; completed: () => boolean } {
  const events: AgentEvent[] = [];
  let done = false;
  stream.events$.subscribe({ next: (e) => events.push(e), complete: () => (done = true) });
  return { events, completed: () => done };
}

describe('EventStream', () => {
  it('publishes to subscribers from their subscription on, with increasing seq', () => {
    const stream = new EventStream({ keepRunEvents: false, seq: 0 });
    stream.publish({ type: 'state', state: 'thinking' }, RUN, PATH, 1);
    const late = collect(stream);
    stream.publish({ type: 'state', state: 'done' }, RUN, PATH, 2);
    expect(late.events.map((e) => e.seq)).toEqual([2]);
    expect(stream.seq).toBe(2);
  });

  it('completes a subscriber that comes after the end, after the kept events', () => {
    const stream = new EventStream({ keepRunEvents: true, seq: 5 });
    stream.publish({ type: 'state', state: 'thinking' }, RUN, PATH, 1);
    stream.complete();
    const late = collect(stream);
    expect(late.events.map((e) => e.seq)).toEqual([6]);
    expect(late.completed()).toBe(true);
  });

  it('completes subscribers that were listening', () => {
    const stream = new EventStream({ keepRunEvents: false, seq: 0 });
    const early = collect(stream);
    stream.complete();
    expect(early.completed()).toBe(true);
  });
});
