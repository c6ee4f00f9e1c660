import type { Tool, ToolSource } from '@troupe/core';
import type { AssistantBlock, ChatMode, ChatState } from './chat-state.js';

/** Put before a prompt sent in plan mode, so the model knows it plans; the view leaves it out. */
export const PLAN_PREFIX = '[Plan mode: you have read-only tools. Analyse the request and answer with a numbered plan; change nothing.]\n\n';

/**
 * The agent's tools as a source read at each model call: every tool in Execute, only the
 * read-only ones in Plan. `mode()` is read each time, so a switch applies from the next call.
 */
export function planAwareTools(tools: readonly Tool[] | ToolSource, mode: () => ChatMode): ToolSource {
  const all = (): readonly Tool[] => ('current' in tools ? tools.current() : tools);
  let base: readonly Tool[] | undefined;
  let readOnly: readonly Tool[] = [];
  return {
    current() {
      const now = all();
      // The same array while nothing changed (the ToolSource contract).
      if (now !== base) {
        base = now;
        readOnly = now.filter((tool) => tool.readOnly === true);
      }
      return mode() === 'plan' ? readOnly : now;
    },
  };
}

/** The prompt for `text` in `mode`. */
export function promptFor(text: string, mode: ChatMode): string {
  return mode === 'plan' ? `${PLAN_PREFIX}${text}` : text;
}

/** A user message as shown: without the plan prefix. */
export function shownUserText(text: string): string {
  return text.startsWith(PLAN_PREFIX) ? text.slice(PLAN_PREFIX.length) : text;
}

/** The latest plan the entry wrote (its last PLAN reply), to carry out when switching to Execute. */
export function latestPlan(state: ChatState): string | undefined {
  const plan = state.blocks.filter((b): b is AssistantBlock => b.kind === 'assistant' && b.plan && b.path === state.entry && b.text.length > 0).at(-1);
  return plan?.text;
}

/** The follow-up that has the agent carry out `plan`. */
export function executePlanMessage(plan: string): string {
  return `Execute mode: all tools are available again. Carry out this plan now:\n\n${plan}`;
}
