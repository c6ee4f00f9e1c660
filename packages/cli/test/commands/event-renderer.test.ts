/**
 * Proves the text renderer streams only text deltas, starts each assistant message on its own
 * line, closes a failed attempt's partial line and notes the retry on stderr, and always ends
 * with a newline; and that the JSON renderer writes one line per event.
 */
import type { AgentEvent, AgentEventPayload, AgentPath, AgentResult, RunId } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { jsonRenderer, textRenderer } from '../../src/commands/event-renderer.js';

let seq = 0;
function event(payload: AgentEventPayload): AgentEvent {
  seq += 1;
  return { ...payload, runId: 'run_1' as RunId, agentPath: 'a' as AgentPath, seq, ts: 0 } as AgentEvent;
}

const text = (delta: string): AgentEvent => event({ type: 'message_update', delta: { type: 'text_delta', index: 0, delta } });
const assistantStart = (): AgentEvent => event({ type: 'message_start', role: 'assistant' });
const end = {} as AgentResult;

describe('textRenderer', () => {
  it('streams text and separates messages', () => {
    let out = '';
    const renderer = textRenderer(
      (t) => (out += t),
      () => undefined,
    );
    for (const e of [
      assistantStart(),
      event({ type: 'message_update', delta: { type: 'thinking_delta', index: 0, delta: 'hmm' } }),
      text('Hel'),
      text('lo.'),
      event({ type: 'message_start', role: 'toolResult' }),
      assistantStart(),
      text('Bye.'),
    ]) {
      renderer.onEvent(e);
    }
    renderer.end(end);
    expect(out).toBe('Hello.\nBye.\n');
  });

  it('closes a failed attempt and notes the retry', () => {
    let out = '';
    let err = '';
    const renderer = textRenderer(
      (t) => (out += t),
      (t) => (err += t),
    );
    renderer.onEvent(assistantStart());
    renderer.onEvent(text('Par'));
    renderer.onEvent(event({ type: 'message_end', role: 'assistant', failed: { code: 'provider_error', message: 'dropped' } }));
    renderer.onEvent(event({ type: 'retry', attempt: 1, delayMs: 1500, error: { kind: 'network', message: 'dropped', retryable: true } }));
    renderer.onEvent(assistantStart());
    renderer.onEvent(text('Partial, then whole.'));
    renderer.end(end);
    expect(out).toBe('Par\nPartial, then whole.\n');
    expect(err).toBe('troupe: retrying in 1.5s after network: dropped (attempt 1)\n');
  });

  it('prints nothing when there was no text', () => {
    let out = '';
    const renderer = textRenderer(
      (t) => (out += t),
      () => undefined,
    );
    renderer.onEvent(assistantStart());
    renderer.end(end);
    expect(out).toBe('');
  });
});

describe('jsonRenderer', () => {
  it('writes one JSON line per event', () => {
    let out = '';
    const renderer = jsonRenderer((t) => (out += t));
    const events = [assistantStart(), text('a\nb')];
    for (const e of events) renderer.onEvent(e);
    renderer.end(end);
    expect(out.split('\n')).toHaveLength(3);
    expect(
      out
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(events);
  });
});
