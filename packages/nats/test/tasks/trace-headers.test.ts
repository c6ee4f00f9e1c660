/**
 * A task's trace context travels as the W3C headers `traceparent` and `tracestate`, never in its
 * body: stamped when there is one, read back (names in any case) into the task, and left out
 * when absent or not a valid header value, so a task always goes and one without them has no trace.
 */
import { headers } from '@nats-io/transport-node';
import { parseAgentPath, parseRunId } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { encodeTask, readTask, spawnRequestOf, type Task } from '../../src/tasks/task.js';
import { stampTrace, traceFromHeaders } from '../../src/tasks/trace-headers.js';

const trace = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'troupe=tool:lead:c1' };
const task: Task = { runId: parseRunId('run_trace'), path: parseAgentPath('lead/helper#1'), agent: 'helper', depth: 1, input: 'look', trace };

describe('trace headers', () => {
  it('stamps the trace as headers, keeps it out of the body, and reads it back into the task', () => {
    const stamp = headers();
    stampTrace(stamp, task.trace);
    expect(stamp.get('traceparent')).toBe(trace.traceparent);
    expect(stamp.get('tracestate')).toBe(trace.tracestate);
    const body = encodeTask(task);
    expect(JSON.parse(body)).not.toHaveProperty('trace');
    const read = readTask({ string: () => body, headers: stamp });
    expect(read).toEqual(task);
    expect(spawnRequestOf(read)).toEqual({ runId: task.runId, path: task.path, agent: 'helper', depth: 1, trace });
  });

  it('reads a task without headers, or with a trace state alone, as having no trace', () => {
    const { trace: _trace, ...plain } = task;
    expect(readTask({ string: () => encodeTask(task), headers: undefined })).toEqual(plain);
    const stateOnly = headers();
    stateOnly.set('tracestate', trace.tracestate);
    expect(traceFromHeaders(stateOnly)).toBeUndefined();
  });

  it('reads header names in any case, and a trace without a trace state', () => {
    const stamp = headers();
    stamp.set('Traceparent', trace.traceparent);
    expect(traceFromHeaders(stamp)).toEqual({ traceparent: trace.traceparent });
  });

  it('stamps nothing for no trace, and leaves out a value that is no valid header', () => {
    const none = headers();
    stampTrace(none, undefined);
    expect(none.keys()).toEqual([]);
    const broken = headers();
    stampTrace(broken, { traceparent: trace.traceparent, tracestate: 'a=1\r\nInjected: yes' });
    expect(broken.keys()).toEqual(['traceparent']);
  });
});
