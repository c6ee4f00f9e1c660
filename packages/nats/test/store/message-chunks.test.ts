/**
 * chunkMessages: the messages a checkpoint adds are cut into chunks whose UTF-8 JSON fits the
 * limit (multi-byte characters counted as bytes), at consecutive offsets from `from`; a single
 * message over the limit is a typed error naming the actor, the message and its size.
 */
import { userMessage, type Message } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { chunkMessages } from '../../src/store/message-chunks.js';
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
  });
});
