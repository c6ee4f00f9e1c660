import type { AssistantContent, ProviderEvent, TextContent, ThinkingContent, ToolCall } from '@troupe/core';
import { parseToolArguments } from './tool-arguments.js';

type Block =
  | { kind: 'text'; index: number; part: TextContent }
  | { kind: 'thinking'; index: number; part: ThinkingContent }
  | { kind: 'toolCall'; index: number; part: ToolCall; json: string; streamed: boolean };

/**
 * Assembles an assistant message from a vendor's stream and queues the matching start/delta/end
 * events. Vendors name their blocks differently (an index, an item id); callers pass that name as
 * `key`. A block's `index` is its position in the final content, so blocks a vendor sends that
 * Troupe does not model take no slot. Tool-call arguments are parsed once, when the block closes.
 *
 * Per-token work is O(1): a delta appends to the block and queues one event.
 */
export class ContentBuilder {
  readonly content: AssistantContent[] = [];
  #events: ProviderEvent[] = [];
  readonly #open = new Map<string, Block>();
  #toolCalls = 0;

  /** Appends text to the text block `key`, opening it first if needed. */
  text(key: string, delta: string): void {
    const block = this.#openBlock(key, 'text');
    if (block.kind !== 'text' || delta === '') return;
    block.part.text += delta;
    this.#events.push({ type: 'text_delta', index: block.index, delta });
  }

  /** Appends reasoning to the thinking block `key`, opening it first if needed. */
  thinking(key: string, delta: string): void {
    const block = this.#openBlock(key, 'thinking');
    if (block.kind !== 'thinking' || delta === '') return;
    block.part.thinking += delta;
    this.#events.push({ type: 'thinking_delta', index: block.index, delta });
  }

  /** Sets (or appends to) the opaque signature of the thinking block `key`; `redacted` marks a block whose reasoning the vendor withheld. */
  signature(key: string, signature: string, options: { append?: boolean; redacted?: boolean } = {}): void {
    const block = this.#openBlock(key, 'thinking');
    if (block.kind !== 'thinking') return;
    block.part.signature = options.append === true ? (block.part.signature ?? '') + signature : signature;
    if (options.redacted === true) block.part.redacted = true;
  }

  /** Opens the tool-call block `key`. */
  toolCall(key: string, id: string, name: string): void {
    if (this.#open.has(key)) return;
    const index = this.content.length;
    const part: ToolCall = { type: 'toolCall', id, name, arguments: {} };
    this.content.push(part);
    this.#open.set(key, { kind: 'toolCall', index, part, json: '', streamed: false });
    this.#toolCalls += 1;
    this.#events.push({ type: 'toolcall_start', index, id, name });
  }

  /** Appends argument JSON to the tool-call block `key` (ignored if it is not open). */
  toolArguments(key: string, delta: string): void {
    const block = this.#open.get(key);
    if (block?.kind !== 'toolCall' || delta === '') return;
    block.json += delta;
    block.streamed = true;
    this.#events.push({ type: 'toolcall_delta', index: block.index, delta });
  }

  /**
   * Gives the complete argument text of the tool-call block `key` (vendors that send it whole, or
   * repeat it at the end). Streamed as one delta when nothing was streamed yet.
   */
  completeToolArguments(key: string, json: string): void {
    const block = this.#open.get(key);
    if (block?.kind !== 'toolCall') return;
    if (!block.streamed) this.toolArguments(key, json);
    else block.json = json;
  }

  /** Closes the block `key`, if open, queuing its end event. */
  close(key: string): void {
    const block = this.#open.get(key);
    if (block === undefined) return;
    this.#open.delete(key);
    if (block.kind === 'toolCall') {
      const parsed = parseToolArguments(block.json);
      block.part.arguments = parsed.arguments;
      if (parsed.rawArguments !== undefined) block.part.rawArguments = parsed.rawArguments;
      this.#events.push({ type: 'toolcall_end', index: block.index });
    } else {
      this.#events.push({ type: block.kind === 'text' ? 'text_end' : 'thinking_end', index: block.index });
    }
  }

  /** Closes every open block whose kind is one of `kinds` (default: all), in content order. */
  closeAll(kinds?: readonly Block['kind'][]): void {
    const keys = [...this.#open.entries()].filter(([, block]) => kinds === undefined || kinds.includes(block.kind)).sort((a, b) => a[1].index - b[1].index);
    for (const [key] of keys) this.close(key);
  }

  /** Whether the block `key` is open. */
  isOpen(key: string): boolean {
    return this.#open.has(key);
  }

  /** How many tool calls were opened so far. */
  get toolCallCount(): number {
    return this.#toolCalls;
  }

  /** Whether any event is queued. */
  get hasEvents(): boolean {
    return this.#events.length > 0;
  }

  /** Takes the queued events. */
  drain(): ProviderEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }

  #openBlock(key: string, kind: 'text' | 'thinking'): Block {
    const existing = this.#open.get(key);
    if (existing !== undefined) return existing;
    const index = this.content.length;
    const block: Block = kind === 'text' ? { kind, index, part: { type: 'text', text: '' } } : { kind, index, part: { type: 'thinking', thinking: '' } };
    this.content.push(block.part);
    this.#open.set(key, block);
    this.#events.push({ type: kind === 'text' ? 'text_start' : 'thinking_start', index });
    return block;
  }
}
