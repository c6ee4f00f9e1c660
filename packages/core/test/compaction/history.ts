/**
 * Helpers for the compaction tests: small messages, a history of turns, a compaction context
 * with a given target, and a check that tool calls and results stay paired. Not a test.
 */
import { emptyUsage, messagesTokens, textOf, type AssistantMessage, type CompactionContext, type Message, type Usage } from '../../src/index.js';
import { createScriptedProvider } from '../../src/testing.js';

export const user = (text: string): Message => ({ role: 'user', content: text, timestamp: 0 });

export function assistant(text: string, callIds: string[] = []): AssistantMessage {
  return {
    role: 'assistant',
    content: [{ type: 'text', text }, ...callIds.map((id) => ({ type: 'toolCall' as const, id, name: 'echo', arguments: { text: id } }))],
    stopReason: callIds.length > 0 ? 'toolUse' : 'stop',
    usage: emptyUsage(),
    model: 'm',
    timestamp: 0,
  };
}

export const result = (id: string, text = id): Message => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'echo',
  content: [{ type: 'text', text }],
  isError: false,
  timestamp: 0,
});

/** `task`, then `turns` tool turns of `size` characters of tool output each, then a text reply. */
export function toolHistory(turns: number, size = 40): Message[] {
  const history: Message[] = [user('task')];
  for (let i = 1; i <= turns; i++) history.push(assistant(`step ${i}`, [`c${i}`]), result(`c${i}`, `${i}:`.padEnd(size, 'x')));
  history.push(assistant('done'));
  return history;
}

/** A compaction context with `targetTokens`; usage reported by steps lands in `usage`. */
export function compactionContext(targetTokens: number, extra: Partial<CompactionContext> = {}): CompactionContext & { usage: Usage[] } {
  const usage: Usage[] = [];
  return {
    signal: new AbortController().signal,
    targetTokens,
    estimate: (messages) => messagesTokens(messages),
    provider: createScriptedProvider([]),
    model: 'agent-model',
    addUsage: (u) => usage.push(u),
    usage,
    ...extra,
  };
}

/** A short label per message: the user's or assistant's text, or the result's call id. */
export function labels(messages: readonly Message[]): string[] {
  return messages.map((m) => (m.role === 'toolResult' ? m.toolCallId : textOf(m).slice(0, 40)));
}

/** Every tool result follows the assistant message that made its call (only results between), and every call has its result. */
export function pairsIntact(messages: readonly Message[]): boolean {
  let open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') open = new Set(m.content.flatMap((p) => (p.type === 'toolCall' ? [p.id] : [])));
    else if (m.role === 'toolResult' && !open.delete(m.toolCallId)) return false;
    else if (m.role === 'user') open = new Set();
  }
  return messages.every(
    (m) => m.role !== 'assistant' || m.content.every((p) => p.type !== 'toolCall' || messages.some((r) => r.role === 'toolResult' && r.toolCallId === p.id)),
  );
}
