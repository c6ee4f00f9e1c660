/**
 * chunkMessages: the messages a checkpoint adds are cut into chunks whose UTF-8 JSON fits the
 * limit (multi-byte characters counted as bytes), at consecutive offsets from `from`; a single
 * message over the limit is a typed error naming the actor, the message and its size.
 * extendTail / encodeHead: a head's tail keeps each message's JSON, cut where a checkpoint
 * rewrites the history; the head's JSON is the same text as the head object's.
 */
import { userMessage, type Message } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { chunkJson, chunkMessages, encodeHead, extendTail } from '../../src/store/message-chunks.js';
import { NatsErrorCode } from '../../src/index.js';

const decode = (data: Uint8Array): Message[] => JSON.parse(new TextDecoder().decode(data)) as Message[];

describe('chunkMessages', () => {
  it('keeps a turn in one chunk when it fits', () => {
    const added = [userMessage('a', 0), userMessage('b', 1)];
    const chunks = chunkMessages(added, 7, 1000, 'lead');
    expect(chunks.map((c) => [c.offset, c.count])).toEqual([[7, 2]]);
    expect(decode(chunks[0]!.data)).toEqual(added);
  });

  it('cuts by UTF-8 bytes, at consecutive offsets', () => {
    const added = Array.from({ length: 5 }, (_, i) => userMessage('é'.repeat(100), i));
    const size = new TextEncoder().encode(JSON.stringify(added[0])).length;
    const chunks = chunkMessages(added, 3, 2 * size + 3, 'lead');
    expect(chunks.map((c) => [c.offset, c.count])).toEqual([
      [3, 2],
      [5, 2],
      [7, 1],
    ]);
    expect(chunks.every((c) => c.data.length <= 2 * size + 3)).toBe(true);
    expect(chunks.flatMap((c) => decode(c.data))).toEqual(added);
  });

  it('rejects a message larger than the limit, naming the actor and the size', () => {
    const message = userMessage('x'.repeat(500), 0);
    expect(() => chunkMessages([userMessage('ok', 0), message], 4, 200, 'lead/researcher#2')).toThrow(
      expect.objectContaining({ code: NatsErrorCode.MessageTooLarge, data: expect.objectContaining({ agentPath: 'lead/researcher#2', index: 5 }) }),
    );
    expect(() => chunkJson([JSON.stringify(message)], 4, 200, 'lead')).toThrow('message 4 (user) of lead is 5');
  });
});

describe('extendTail and encodeHead', () => {
  const messages = Array.from({ length: 6 }, (_, i) => userMessage(`m${i} é`, i));
  const json = (list: readonly Message[]): string[] => list.map((m) => JSON.stringify(m));

  it('extends a tail, or cuts it where the history was rewritten, or starts one past it', () => {
    const first = extendTail(undefined, 2, messages.slice(2, 4));
    expect(first).toEqual({ from: 2, messages: json(messages.slice(2, 4)), bytes: json(messages.slice(2, 4)).join(',').length + 1 });
    const next = extendTail(first, 4, messages.slice(4, 6));
    expect(next.messages).toEqual(json(messages.slice(2, 6)));
    expect(next.bytes).toBe(json(messages.slice(2, 6)).join(',').length + 1);
    const rewritten = extendTail(next, 3, [messages[5]!]);
    expect(rewritten).toEqual({ from: 2, messages: json([messages[2]!, messages[5]!]), bytes: json([messages[2]!, messages[5]!]).join(',').length + 1 });
    expect(extendTail(next, 1, [messages[1]!]).from).toBe(1);
    expect(extendTail(next, 9, [messages[1]!]).from).toBe(9);
  });

  it('writes the same JSON as the stored head object', () => {
    const head = { agentPath: 'lead', context: { systemPrompt: 'be "brief"', turn: 3 }, state: 'tool_executing' };
    const tail = extendTail(undefined, 2, messages.slice(2, 5));
    const expected = JSON.stringify({ ...head, historyLength: 5, tail: { from: 2, messages: messages.slice(2, 5) } });
    expect(encodeHead(head, 5, tail)).toBe(expected);
    expect(encodeHead(head, 2, extendTail(undefined, 2, []))).toBe(JSON.stringify({ ...head, historyLength: 2, tail: { from: 2, messages: [] } }));
    expect(JSON.parse(encodeHead({ ...head, historyLength: 1 }, 5, tail))).toEqual(JSON.parse(expected));
  });
});
