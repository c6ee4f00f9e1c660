/**
 * Proves the content builder assigns content indexes in order of first appearance, brackets every
 * block with its start and end, queues only the new text per delta, parses tool-call arguments
 * once at the end, streams whole arguments as one delta, and keeps signatures.
 */
import { describe, expect, it } from 'vitest';
import { ContentBuilder } from '../../src/shared/content-builder.js';

describe('ContentBuilder', () => {
  it('builds content and events for interleaved blocks', () => {
    const b = new ContentBuilder();
    b.thinking('r', 'think');
    b.signature('r', 'si');
    b.signature('r', 'g', { append: true });
    b.close('r');
    b.text('t', 'Hel');
    b.text('t', 'lo');
    b.toolCall('c1', 'id1', 'add');
    b.toolArguments('c1', '{"a":');
    b.toolCall('c2', 'id2', 'add');
    b.completeToolArguments('c2', '{"b":2}');
    b.toolArguments('c1', '1}');
    b.closeAll();
    expect(b.content).toEqual([
      { type: 'thinking', thinking: 'think', signature: 'sig' },
      { type: 'text', text: 'Hello' },
      { type: 'toolCall', id: 'id1', name: 'add', arguments: { a: 1 } },
      { type: 'toolCall', id: 'id2', name: 'add', arguments: { b: 2 } },
    ]);
    expect(b.drain()).toEqual([
      { type: 'thinking_start', index: 0 },
      { type: 'thinking_delta', index: 0, delta: 'think' },
      { type: 'thinking_end', index: 0 },
      { type: 'text_start', index: 1 },
      { type: 'text_delta', index: 1, delta: 'Hel' },
      { type: 'text_delta', index: 1, delta: 'lo' },
      { type: 'toolcall_start', index: 2, id: 'id1', name: 'add' },
      { type: 'toolcall_delta', index: 2, delta: '{"a":' },
      { type: 'toolcall_start', index: 3, id: 'id2', name: 'add' },
      { type: 'toolcall_delta', index: 3, delta: '{"b":2}' },
      { type: 'toolcall_delta', index: 2, delta: '1}' },
      { type: 'text_end', index: 1 },
      { type: 'toolcall_end', index: 2 },
      { type: 'toolcall_end', index: 3 },
    ]);
    expect(b.hasEvents).toBe(false);
    expect(b.toolCallCount).toBe(2);
  });

  it('opens a new block when a closed key is used again', () => {
    const b = new ContentBuilder();
    b.text('t', 'a');
    b.close('t');
    b.text('t', 'b');
    b.closeAll();
    expect(b.content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
  });
});
