import type { CacheControlEphemeral, MessageParam, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages/messages';
import type { AnthropicCacheOptions } from '../provider-options.js';

/** Resolved caching: which breakpoints to set, and their lifetime. `undefined`: caching is off. */
export type CachePlan = Required<AnthropicCacheOptions> | undefined;

/** The breakpoints for a `cache` option: `false` → none; `true`/absent → system, last tool, second-to-last message, 5 minutes. */
export function cachePlan(option: boolean | AnthropicCacheOptions | undefined): CachePlan {
  if (option === false) return undefined;
  const given = option === true || option === undefined ? {} : option;
  return { system: given.system ?? true, tools: given.tools ?? true, message: given.message ?? 'second-to-last', ttl: given.ttl ?? '5m' };
}

function marker(plan: Required<AnthropicCacheOptions>): CacheControlEphemeral {
  return plan.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

/** The system prompt as blocks, with a breakpoint when the plan says so. */
export function cachedSystem(systemPrompt: string, plan: CachePlan): string | TextBlockParam[] {
  if (plan === undefined || !plan.system) return systemPrompt;
  return [{ type: 'text', text: systemPrompt, cache_control: marker(plan) }];
}

/** Sets a breakpoint on the last tool (in place). */
export function cacheTools(tools: Tool[], plan: CachePlan): void {
  const last = tools.at(-1);
  if (plan?.tools && last !== undefined) last.cache_control = marker(plan);
}

/**
 * Sets a breakpoint on the last block of the planned message (in place), skipping thinking
 * blocks, which cannot carry one. A string message becomes one text block.
 */
export function cacheMessages(messages: MessageParam[], plan: CachePlan): void {
  if (plan === undefined || plan.message === 'none') return;
  const message = messages[messages.length - (plan.message === 'last' ? 1 : 2)];
  if (message === undefined) return;
  if (typeof message.content === 'string') {
    message.content = [{ type: 'text', text: message.content, cache_control: marker(plan) }];
    return;
  }
  for (let i = message.content.length - 1; i >= 0; i--) {
    const block = message.content[i];
    if (block === undefined || block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    if ('cache_control' in block || block.type === 'text' || block.type === 'image' || block.type === 'tool_use' || block.type === 'tool_result') {
      (block as { cache_control?: CacheControlEphemeral | null }).cache_control = marker(plan);
      return;
    }
  }
}
