/**
 * Proves an actor's history reads as a conversation: each message under its role, thinking
 * collapsed to one line with its length, tool calls with their arguments, tool results and
 * errors named by tool and call, long results cut to their first lines (or characters) saying
 * what was left out, images as a placeholder, and a failed or aborted reply said.
 */
import { emptyUsage, type AssistantMessage, type Message } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { formatConversation } from '../../src/view/conversation.js';

const assistant = (content: AssistantMessage['content'], extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  role: 'assistant',
  content,
  stopReason: 'stop',
  usage: emptyUsage(),
  model: 'scripted:default',
  timestamp: 0,
  ...extra,
});

describe('formatConversation', () => {
  it('labels each message with its role, collapses thinking and shows tool calls with their arguments', () => {
    const messages: Message[] = [
      { role: 'user', content: 'What time is it?', timestamp: 0 },
      assistant(
        [
          { type: 'thinking', thinking: 'The user wants the time.\nI should call the clock tool rather than guess, since I cannot know it otherwise.' },
          { type: 'text', text: 'Let me look.' },
          { type: 'toolCall', id: 'call_1', name: 'clock', arguments: { zone: 'UTC' } },
        ],
        { stopReason: 'toolUse' },
      ),
      { role: 'toolResult', toolCallId: 'call_1', toolName: 'clock', content: [{ type: 'text', text: '12:00' }], isError: false, timestamp: 0 },
      assistant([{ type: 'text', text: 'It is noon.\nIn UTC.' }]),
    ];
    expect(formatConversation(messages)).toBe(
      [
        'user',
        '  What time is it?',
        '',
        'assistant',
        '  (thinking, 106 chars: The user wants the time. I should call the clock tool rather than guess, since I cannot know it…)',
        '  Let me look.',
        '  → clock {"zone":"UTC"}',
        '',
        'tool result · clock (call_1)',
        '  12:00',
        '',
        'assistant',
        '  It is noon.',
        '  In UTC.',
        '',
      ].join('\n'),
    );
  });

  it('cuts long tool results to their first lines, or characters, and says what it left out', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
    const long = formatConversation([
      { role: 'toolResult', toolCallId: 'c', toolName: 'bash', content: [{ type: 'text', text: lines }], isError: false, timestamp: 0 },
    ]);
    expect(long).toContain('  line 12\n  … (28 more lines)\n');
    expect(long).not.toContain('line 13');
    const wide = formatConversation([
      { role: 'toolResult', toolCallId: 'c', toolName: 'read_file', content: [{ type: 'text', text: 'x'.repeat(5000) }], isError: true, timestamp: 0 },
    ]);
    expect(wide).toMatch(/^tool error · read_file \(c\)\n {2}x{1200}\n {2}… \(3800 more chars\)\n$/);
  });

  it('shows images as placeholders, cuts long arguments, and says how a reply ended badly', () => {
    const text = formatConversation([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image', mimeType: 'image/png', data: 'A'.repeat(4096) },
        ],
        timestamp: 0,
      },
      assistant([{ type: 'toolCall', id: 'c', name: 'write_file', arguments: { text: 'y'.repeat(1000) } }], {
        stopReason: 'error',
        errorMessage: 'overloaded',
      }),
      assistant([{ type: 'text', text: 'Half' }], { stopReason: 'aborted' }),
    ]);
    expect(text).toContain('user\n  Look:\n  [image image/png, 3 KB]\n');
    expect(text).toMatch(/→ write_file \{"text":"y{391}… \(611 more chars\)\n {2}\(failed: overloaded\)\n/);
    expect(text).toContain('assistant\n  Half\n  (aborted)\n');
  });
});
