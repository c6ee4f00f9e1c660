/**
 * The compacted context: what the model is sent instead of the whole history once the history
 * no longer fits. The history itself is never rewritten (the record stays whole in
 * `agent.messages` and in checkpoints); the view is kept in the agent's context, plain JSON, so a
 * restored agent sends the same view.
 */
import type { Message } from '../messages.js';
import type { CompactionInfo } from './compaction-strategy.js';
import { messagesTokens } from './token-estimate.js';

/**
 * A compacted view of the history: `head` stands for `history[0, from)`, every message from
 * `from` on is sent as it is (so the turns after a compaction enter the view for free).
 */
export interface ContextView {
  /** Indexes of history messages kept unchanged, or messages in their place (a summary, a marker, a shortened tool result). */
  head: (number | Message)[];
  /** History messages from this index on follow the head unchanged. */
  from: number;
  /** The history's length when the view was made: replies after it report the usage of this view. */
  at: number;
  /** Estimated tokens of the request when the view was made. */
  tokens: number;
  /** The compaction that made it. */
  compaction: CompactionInfo;
}

/** The messages the model is sent: the history itself when there is no view (no copy), else a fresh array. */
export function viewMessages(history: readonly Message[], view: ContextView | undefined): readonly Message[] {
  if (view === undefined) return history;
  const messages: Message[] = [];
  for (const item of view.head) {
    const message = typeof item === 'number' ? history[item] : item;
    if (message !== undefined) messages.push(message);
  }
  for (let i = view.from; i < history.length; i++) messages.push(history[i] as Message);
  return messages;
}

/**
 * The request's estimated tokens now: the usage the last reply made with the current view
 * reported (its input and output) plus an estimate of every message after it; without such a
 * reply, the view's own estimate (or, without a view, `overhead` and the whole history) plus the
 * messages since. A turn costs O(new messages).
 */
export function contextTokens(history: readonly Message[], view: ContextView | undefined, overhead: number): number {
  const floor = view?.at ?? 0;
  for (let i = history.length - 1; i >= floor; i--) {
    const message = history[i] as Message;
    if (message.role === 'assistant' && message.usage.input + message.usage.cacheRead > 0) {
      const { input, output, cacheRead, cacheWrite } = message.usage;
      return input + output + cacheRead + cacheWrite + messagesTokens(history, i + 1);
    }
  }
  return view === undefined ? overhead + messagesTokens(history) : view.tokens + messagesTokens(history, view.at);
}

/**
 * Records `after` (what a compaction made of `before`, the messages of `previous` view of
 * `history` the model was being sent) as a view of `history`: the longest tail of `after` that is
 * the history's own tail becomes `from`, every other message is kept by its history index when it
 * is one, else stored as it is. Costs O(view), not O(history).
 */
export function toContextView(
  history: readonly Message[],
  previous: ContextView | undefined,
  before: readonly Message[],
  after: readonly Message[],
  tokens: number,
  info: Omit<CompactionInfo, 'removedMessages' | 'keptMessages' | 'addedMessages'>,
): ContextView {
  const index = new Map<Message, number>();
  for (const item of previous?.head ?? []) if (typeof item === 'number' && history[item] !== undefined) index.set(history[item], item);
  for (let i = previous?.from ?? 0; i < history.length; i++) index.set(history[i] as Message, i);
  let k = after.length;
  let from = history.length;
  while (k > 0 && from > 0 && after[k - 1] === history[from - 1]) {
    k--;
    from--;
  }
  const head: (number | Message)[] = [];
  for (let i = 0; i < k; i++) {
    const message = after[i] as Message;
    head.push(index.get(message) ?? message);
  }
  const previousMessages = new Set(before);
  let kept = 0;
  for (const message of after) if (previousMessages.has(message)) kept++;
  const compaction: CompactionInfo = { ...info, removedMessages: before.length - kept, keptMessages: kept, addedMessages: after.length - kept };
  return { head, from, at: history.length, tokens, compaction };
}
