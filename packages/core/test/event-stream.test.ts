/**
 * The agent's event stream keeps its subscribers in a plain list and still behaves as
 * a subject would: events published before anyone listened are not replayed (unless kept for the
 * run), a subscriber gets the events after it subscribed with an increasing `seq`, and once the
 * stream completed a new subscriber (after the kept events, when kept) is completed at once. The
 * `listener` (`AgentOptions.onEvent`) hears each event before them.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentPath, RunId } from '../src/index.js';
import { EventStream } from '../src/event-stream.js';
import { NO_PATH, NO_RUN, NO_TS, type UnstampedEvent } from '../src/unstamped-event.js';

const RUN = 'run-1' as RunId;
const PATH = 'agent' as AgentPath;

/** A `state` event as core makes it: with the envelope's placeholders, for `publish` to stamp. */
const state = (name: 'thinking' | 'done'): UnstampedEvent => ({ type: 'state', state: name, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS });

function collect(stream: EventStream): { events: AgentEvent[]; completed: () => boolean } {
  const events: AgentEvent[] = [];
  let done = false;
  stream.events$.subscribe({ next: (e) => events.push(e), complete: () => (done = true) });
  return { events, completed: () => done };
}

describe('EventStream', () => {
  it('publishes to subscribers from their subscription on, with increasing seq', () => {
    const stream = new EventStream({ keepRunEvents: false, seq: 0 });
    stream.publish(state('thinking'), RUN, PATH, 1);
    const late = collect(stream);
    stream.publish(state('done'), RUN, PATH, 2);
    expect(late.events.map((e) => e.seq)).toEqual([2]);
    expect(stream.seq).toBe(2);
  });

  it('makes its observable at the first read and hands out the same one after, kept events included', () => {
    const stream = new EventStream({ keepRunEvents: true, seq: 0 });
    stream.publish(state('thinking'), RUN, PATH, 1);
    const events$ = stream.events$;
    expect(stream.events$).toBe(events$);
    const late = collect(stream);
    stream.publish(state('done'), RUN, PATH, 2);
    expect(late.events.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('hands each event to its listener before the subscribers, with its envelope', () => {
    const heard: string[] = [];
    const stream = new EventStream({ keepRunEvents: false, seq: 0, listener: (e) => heard.push(`listener ${e.seq} ${e.agentPath}`) });
    stream.events$.subscribe((e) => heard.push(`subscriber ${e.seq}`));
    stream.publish(state('thinking'), RUN, PATH, 1);
    stream.publish(state('done'), RUN, PATH, 2);
    expect(heard).toEqual(['listener 1 agent', 'subscriber 1', 'listener 2 agent', 'subscriber 2']);
  });

  it('completes a subscriber that comes after the end, after the kept events', () => {
    const stream = new EventStream({ keepRunEvents: true, seq: 5 });
    stream.publish(state('thinking'), RUN, PATH, 1);
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

  it('hands each event to the subscribers listening when it was published, in subscription order', () => {
    const stream = new EventStream({ keepRunEvents: false, seq: 0 });
    const seen: string[] = [];
    const first = stream.events$.subscribe((e) => {
      seen.push(`first ${e.seq}`);
      // Leaving and joining during a publish: this event still reaches the others, not the newcomer.
      first.unsubscribe();
      stream.events$.subscribe((later) => seen.push(`late ${later.seq}`));
    });
    stream.events$.subscribe((e) => seen.push(`second ${e.seq}`));
    stream.publish(state('thinking'), RUN, PATH, 1);
    stream.publish(state('done'), RUN, PATH, 2);
    expect(seen).toEqual(['first 1', 'second 1', 'second 2', 'late 2']);
  });

  it('hands nothing more to a subscriber that unsubscribed, nor completes it, while the others go on', () => {
    const stream = new EventStream({ keepRunEvents: false, seq: 0 });
    const seen: string[] = [];
    const leaving = stream.events$.subscribe({ next: (e) => seen.push(`leaving ${e.seq}`), complete: () => seen.push('leaving complete') });
    stream.events$.subscribe({ next: (e) => seen.push(`staying ${e.seq}`), complete: () => seen.push('staying complete') });
    stream.publish(state('thinking'), RUN, PATH, 1);
    leaving.unsubscribe();
    stream.publish(state('done'), RUN, PATH, 2);
    stream.complete();
    expect(seen).toEqual(['leaving 1', 'staying 1', 'staying 2', 'staying complete']);
  });
});
