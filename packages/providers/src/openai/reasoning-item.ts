import type { ThinkingContent } from '@troupe/core';

/**
 * An OpenAI Responses reasoning item as Troupe keeps it: in the `signature` of the thinking part
 * it produced (opaque vendor data, per the core's `ThinkingContent`), so that it can be sent back
 * on later turns of a stateless (`store: false`) conversation.
 */
export interface StoredReasoningItem {
  type: 'reasoning';
  id: string;
  encrypted_content?: string;
}

/** The signature text for a reasoning item. */
export function encodeReasoningItem(item: { id: string; encrypted_content?: string | null | undefined }): string {
  const stored: StoredReasoningItem = { type: 'reasoning', id: item.id };
  if (typeof item.encrypted_content === 'string') stored.encrypted_content = item.encrypted_content;
  return JSON.stringify(stored);
}

/** The reasoning item a thinking part carries, or `undefined` if its signature is not one. */
export function decodeReasoningItem(part: ThinkingContent): StoredReasoningItem | undefined {
  if (part.signature === undefined || !part.signature.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(part.signature);
    if (typeof value !== 'object' || value === null) return undefined;
    const fields = value as Record<string, unknown>;
    if (fields['type'] !== 'reasoning' || typeof fields['id'] !== 'string') return undefined;
    const item: StoredReasoningItem = { type: 'reasoning', id: fields['id'] };
    if (typeof fields['encrypted_content'] === 'string') item.encrypted_content = fields['encrypted_content'];
    return item;
  } catch {
    return undefined;
  }
}

/**
 * Responses tool calls have two ids: `call_id` (what results answer) and the output item's `id`
 * (which must accompany reasoning items sent back). Troupe's tool-call id holds both as
 * `call_id|item_id`; it is opaque to the core, which only echoes it in the tool result.
 */
export function splitToolCallId(id: string): { callId: string; itemId?: string } {
  const bar = id.indexOf('|');
  return bar === -1 ? { callId: id } : { callId: id.slice(0, bar), itemId: id.slice(bar + 1) };
}
