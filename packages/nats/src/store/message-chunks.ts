import { TroupeError, type Message } from '@troupe/core';
import type { Bucket } from '../connection/bucket.js';
import { RunStoreErrorCode } from '@troupe/runtime';
import { NatsErrorCode } from '../nats-error-code.js';
import { kvKey } from '../connection/nats-names.js';

/** `count` messages of a history stored under one key, starting at index `offset`. */
export interface MessageChunk {
  offset: number;
  count: number;
  /** The JSON array of the messages, UTF-8. */
  data: Uint8Array;
}

/**
 * Splits the messages a checkpoint adds at `from` into chunks of at most `maxBytes` of JSON, each
 * stored at its own offset (usually one chunk: a turn adds a few messages). A single message
 * larger than `maxBytes` is a `nats_message_too_large` error naming the actor and the size.
 */
export function chunkMessages(added: readonly Message[], from: number, maxBytes: number, agentPath: string): MessageChunk[] {
  return chunkJson(
    added.map((message) => JSON.stringify(message)),
    from,
    maxBytes,
    agentPath,
  );
}

/** {@link chunkMessages} of messages already encoded, each its JSON (a tail's, encoded once when it joined the tail). */
export function chunkJson(added: readonly string[], from: number, maxBytes: number, agentPath: string): MessageChunk[] {
  const encoder = new TextEncoder();
  const chunks: MessageChunk[] = [];
  let parts: string[] = [];
  let size = 2; // the brackets
  const close = (): void => {
    if (parts.length === 0) return;
    const offset = chunks.reduce((end, chunk) => end + chunk.count, from);
    chunks.push({ offset, count: parts.length, data: encoder.encode(`[${parts.join(',')}]`) });
    parts = [];
    size = 2;
  };
  added.forEach((json, i) => {
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes + 2 > maxBytes) {
      const { role } = JSON.parse(json) as Message;
      throw new TroupeError(
        NatsErrorCode.MessageTooLarge,
        `message ${from + i} (${role}) of ${agentPath} is ${bytes} bytes, over the ${maxBytes} bytes one NATS payload can hold`,
        { data: { agentPath, index: from + i, size: bytes, maxBytes } },
      );
    }
    if (size + 1 + bytes > maxBytes) close();
    size += (parts.length > 0 ? 1 : 0) + bytes;
    parts.push(json);
  });
  close();
  return chunks;
}

/**
 * The newest messages of a history, from index `from`, kept in its head until they grow too big:
 * each as its JSON, encoded once when it joined the tail (a message stays in the tail for several
 * checkpoints, each of which writes it again, and is then written once more in a chunk).
 */
export interface HistoryTail {
  from: number;
  messages: string[];
  /** Their JSON size. */
  bytes: number;
}

/**
 * The tail after a checkpoint that adds `added` at index `from`: the known tail cut at `from` and
 * extended, or a new tail at `from` when the known one does not reach it (none known, or the
 * history was rewritten before it — a compaction — so what is in chunks past `from` is stale).
 */
export function extendTail(known: HistoryTail | undefined, from: number, added: readonly Message[]): HistoryTail {
  const encoded = added.map((message) => JSON.stringify(message));
  const addedBytes = sizeOf(encoded);
  if (known === undefined || from < known.from || from > known.from + known.messages.length) {
    return { from, messages: encoded, bytes: addedBytes };
  }
  const kept = known.messages.slice(0, from - known.from);
  const keptBytes = kept.length === known.messages.length ? known.bytes : sizeOf(kept);
  return { from: known.from, messages: kept.concat(encoded), bytes: keptBytes + addedBytes };
}

/** The JSON size of a tail of `messages`, as {@link HistoryTail.bytes} counts it. */
function sizeOf(messages: readonly string[]): number {
  return messages.reduce((sum, json) => sum + json.length + 1, 0);
}

/**
 * A checkpoint head's JSON: `head` and `historyLength`, then `tail` (see {@link HistoryTail}), its
 * messages spliced in as they were encoded: the same text as `JSON.stringify({ ...head,
 * historyLength, tail: { from, messages } })`.
 */
export function encodeHead(head: object, historyLength: number, tail: HistoryTail): string {
  // `historyLength` is always there, so the object's JSON is never `{}` and ends with its closing brace.
  const base = JSON.stringify({ ...head, historyLength });
  return `${base.slice(0, -1)},"tail":{"from":${tail.from},"messages":[${tail.messages.join(',')}]}}`;
}

/**
 * Reads the first `length` messages of an actor's history: the chunk at offset 0, then the one at
 * 0 + its length, and so on. Only chunks the current history wrote are on that walk, so chunks
 * left by an earlier, longer history (before a compaction rewrote it from 0) are never read.
 */
export async function readHistory(kv: Bucket, runId: string, agentPath: string, length: number): Promise<Message[]> {
  const history: Message[] = [];
  while (history.length < length) {
    const key = kvKey(runId, agentPath, String(history.length));
    const entry = await kv.get(key);
    if (entry?.operation !== 'PUT') {
      throw new TroupeError(RunStoreErrorCode.Corrupt, `the history of ${agentPath} in run ${runId} has no messages at ${history.length} (of ${length})`);
    }
    let chunk: unknown;
    try {
      chunk = entry.json();
    } catch (error) {
      throw new TroupeError(RunStoreErrorCode.Corrupt, `the message chunk at key ${key} is not valid JSON`, { cause: error });
    }
    if (!Array.isArray(chunk) || chunk.length === 0)
      throw new TroupeError(RunStoreErrorCode.Corrupt, `the message chunk at key ${key} is not a non-empty array`);
    history.push(...(chunk as Message[]));
  }
  // A chunk reaching past the head was written by a checkpoint whose head never landed.
  return history.slice(0, length);
}
