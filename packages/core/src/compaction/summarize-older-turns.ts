import { textOf, userMessage, type AssistantMessage, type Message } from '../messages.js';
import type { Provider, ProviderRequest } from '../provider.js';
import type { CompactionContext, CompactionStrategy } from './compaction-strategy.js';
import { SUMMARY_HEADER, SUMMARY_INSTRUCTIONS, SUMMARY_SYSTEM_PROMPT, transcriptOf } from './summary-prompt.js';
import { firstUserIndex, keepNewestTurns, turnStarts } from './turns.js';

/** Options of {@link summarizeOlderTurns}. */
export interface SummarizeOlderTurnsOptions {
  /** The model that writes the summary. Default: the agent's own provider and model. */
  summarizer?: { provider: Provider; model: string };
  /** How much of the target the most recent turns, kept word for word, may fill. Default 0.3. */
  keepRecent?: number;
  /** The summary's output limit in tokens. Default: a quarter of the target, between 256 and 4,096. */
  maxTokens?: number;
  /** Replaces the default instructions ({@link SUMMARY_INSTRUCTIONS}). */
  instructions?: string;
}

/**
 * The second step of the default cascade (`summary`): keeps the first user message (the task)
 * and the most recent turns, and replaces the turns between them with one user message holding a
 * summary written by a model — the agent's own unless `summarizer` names another — told to keep
 * the goals, decisions, files touched, progress and open questions. An earlier summary is among
 * the turns summarised, so summaries roll up. The summary call's usage counts in the run's.
 * A failed call rejects (the cascade then goes on with its next step).
 */
export function summarizeOlderTurns(options: SummarizeOlderTurnsOptions = {}): CompactionStrategy {
  const keepRecent = options.keepRecent ?? 0.3;
  return {
    name: 'summary',
    async compact(messages, context) {
      const first = firstUserIndex(messages);
      const starts = turnStarts(messages, first + 1);
      if (first < 0 || starts.length < 2) return [...messages];
      const cut = keepNewestTurns(messages, starts, context.targetTokens * keepRecent, context.estimate);
      // The task goes into the transcript too (it stays in the context as well): the summary is better for knowing the goal.
      const reply = await summarize(messages.slice(0, cut), context, options);
      const summary = userMessage(`${SUMMARY_HEADER}\n\n${textOf(reply).trim()}`, reply.timestamp);
      return [...messages.slice(0, first + 1), summary, ...messages.slice(cut)];
    },
  };
}

async function summarize(turns: readonly Message[], context: CompactionContext, options: SummarizeOlderTurnsOptions): Promise<AssistantMessage> {
  const { provider, model } = options.summarizer ?? context;
  const maxTokens = options.maxTokens ?? Math.min(4096, Math.max(256, Math.floor(context.targetTokens / 4)));
  const transcript = transcriptOf(turns, Math.max(8000, context.targetTokens * 4));
  const request: ProviderRequest = {
    model,
    systemPrompt: SUMMARY_SYSTEM_PROMPT,
    messages: [userMessage(`<transcript>\n${transcript}\n</transcript>\n\n${options.instructions ?? SUMMARY_INSTRUCTIONS}`, turns.at(-1)?.timestamp ?? 0)],
    tools: [],
    maxTokens,
  };
  for await (const event of provider.stream(request, { signal: context.signal })) {
    if (event.type === 'error') throw new Error(`the summary call failed: ${event.error.message}`);
    if (event.type !== 'done') continue;
    context.addUsage(event.message.usage);
    if (event.message.stopReason === 'error' || event.message.stopReason === 'aborted')
      throw new Error(`the summary call failed: ${event.message.errorMessage ?? event.message.stopReason}`);
    if (textOf(event.message).trim() === '') throw new Error('the summary call returned no text');
    return event.message;
  }
  throw new Error('the summary call ended without a reply');
}
