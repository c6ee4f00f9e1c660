import type { ThinkingLevel } from '@troupe/core';
import type { ThinkingStyle } from '../catalog/model-info.js';

/**
 * OpenAI's `reasoning.effort` / `reasoning_effort` for a thinking level: `undefined` leaves the
 * model's default. For a catalog model the nearest effort it supports (`off` → `none`, else the
 * lowest it has); for a model the catalog lacks (new models, OpenAI-compatible servers) only an
 * explicit level other than `off` is sent, `minimal` as `low`.
 */
export function openAIEffort(level: ThinkingLevel | undefined, style: ThinkingStyle | undefined): string | undefined {
  if (level === undefined) return undefined;
  if (style === undefined) return level === 'off' ? undefined : level === 'minimal' ? 'low' : level;
  if (style.kind !== 'effort') return undefined;
  const has = (effort: string): boolean => style.efforts.includes(effort);
  if (level === 'off') return has('none') ? 'none' : has('minimal') ? 'minimal' : style.efforts[0];
  if (level === 'minimal') return has('minimal') ? 'minimal' : has('low') ? 'low' : style.efforts[0];
  return has(level) ? level : undefined;
}

/** Token budgets for the thinking levels (Anthropic manual thinking, Gemini 2.5). */
export const THINKING_BUDGETS: Readonly<Record<Exclude<ThinkingLevel, 'off'>, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 10_240,
  high: 32_768,
};
