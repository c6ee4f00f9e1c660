/**
 * The in-process transport's per-run fan-out of events: plain listeners and rxjs subscribers
 * hear a run's events in the order they started listening, a stopped listener hears nothing more,
 * the end of a run's events completes every subscriber (one that subscribes after it completes at
 * once), and runs do not hear each other. Then through a runtime: a run's handle tracks its status
 * without anyone subscribing, and its `events$` taken after the run ended completes at once.
 */
import { parseAgentPath, parseRunId, type AgentEvent } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/index.js';
import { RunEventFanOut } from '../../src/system/run-event-fan-out.js';
import { testGraph } from '../../src/testing.js';

const runA = parseRunId('run_fan_a');
const runB = parseRunId('run_fan_b');

function stateEvent(runId: typeof runA, seq: number): AgentEvent {
  return { type: 'state', state: 'thinking', runId, agentPath: parseAgentPath('lead'), seq, ts: seq };
}

describe('RunEventFanOut', () => {
  it('hands each run its own events, in listening order, until a listener stops', () => {
    const fanOut = new RunEventFanOut();
    const heard: string[] = [];
    const stop = fanOut.listen(runA, (event) => heard.push(`listener ${event?.seq ?? 'end'}`));
    const subscription = fanOut.events(runA).subscribe((event) => heard.push(`subscriber ${event.seq}`));
    fanOut.listen(runB, (event) => heard.push(`other run ${event?.seq ?? 'end'}`));
    fanOut.emit(stateEvent(runA, 1));
    stop();
    fanOut.emit(stateEvent(runA, 2));
    subscription.unsubscribe();
    fanOut.emit(stateEvent(runA, 3));
    expect(heard).toEqual(['listener 1', 'subscriber 1', 'subscriber 2']);
  });

  it('completes subscribers when a run ends, and at once for one subscribing after', () => {
    const fanOut = new RunEventFanOut();
    const events = fanOut.events(runA);
    const heard: string[] = [];
    events.subscribe({ next: (event) => heard.push(`next ${event.seq}`), complete: () => heard.push('complete') });
    fanOut.listen(runA, (event) => heard.push(event === undefined ? 'listener end' : 'listener event'));
    fanOut.emit(stateEvent(runA, 1));
    fanOut.end(runA);
    events.subscribe({ complete: () => heard.push('late complete') });
    fanOut.emit(stateEvent(runA, 2));
    expect(heard).toEqual(['next 1', 'listener event', 'complete', 'listener end', 'late complete']);
  });
});

describe('RunEventFanOut as listeners come and go', () => {
  it('hands events to a lone listener, then to two, then to the one left and one more, in listening order', () => {
    const fanOut = new RunEventFanOut();
    const heard: string[] = [];
    const stopFirst = fanOut.listen(runA, (event) => heard.push(`first ${event?.seq ?? 'end'}`));
    fanOut.emit(stateEvent(runA, 1));
    const stopSecond = fanOut.listen(runA, (event) => heard.push(`second ${event?.seq ?? 'end'}`));
    fanOut.emit(stateEvent(runA, 2));
    stopFirst();
    fanOut.emit(stateEvent(runA, 3));
    fanOut.listen(runA, (event) => heard.push(`third ${event?.seq ?? 'end'}`));
    fanOut.emit(stateEvent(runA, 4));
    stopSecond();
    stopSecond();
    fanOut.emit(stateEvent(runA, 5));
    fanOut.end(runA);
    expect(heard).toEqual(['first 1', 'first 2', 'second 2', 'second 3', 'second 4', 'third 4', 'third 5', 'third end']);
  });
});

describe('RunEventFanOut while it hands out an event', () => {
  it('still reaches every listener of that event when one stops, and not one that started meanwhile', () => {
    const fanOut = new RunEventFanOut();
    const heard: string[] = [];
    const stop = fanOut.listen(runA, (event) => {
      heard.push(`first ${event?.seq ?? 'end'}`);
      stop();
      fanOut.listen(runA, (later) => heard.push(`late ${later?.seq ?? 'end'}`));
    });
    fanOut.listen(runA, (event) => heard.push(`second ${event?.seq ?? 'end'}`));
    fanOut.emit(stateEvent(runA, 1));
    fanOut.emit(stateEvent(runA, 2));
    expect(heard).toEqual(['first 1', 'second 1', 'second 2', 'late 2']);
  });
});

describe('a run handle with nobody watching', () => {
  it('follows its run to waiting and to its end, and its events$ taken after the end completes at once', async () => {
    const graph = testGraph({
      asker: { tools: ['ask_user'], script: [{ toolCalls: [{ name: 'ask_user', arguments: { question: 'Go on?' } }] }, { text: 'ok' }] },
    });
    const runtime = createRuntime({ graph });
    const handle = runtime.run('start');
    // Nothing subscribes: the handle learns it waits through the transport's listener.
    const waiting = new Promise<void>((resolve) => {
      const check = (): void => (handle.status === 'waiting' ? resolve() : void setImmediate(check));
      check();
    });
    await waiting;
    expect(handle.waiting.map((p) => p.input.kind)).toEqual(['question']);
    await handle.reply('yes');
    expect((await handle.result).status).toBe('done');
    const completed = await new Promise<boolean>((resolve) => handle.events$.subscribe({ complete: () => resolve(true) }));
    expect(completed).toBe(true);
    await runtime.close();
  });
});
