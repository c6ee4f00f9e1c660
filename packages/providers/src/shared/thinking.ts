import type { ThinkingLevel } from '@troupe/core';
import type { ThinkingStyle } from '../catalog/model-info.js';

/** The efforts from `low` up, as vendors name them (`xhigh` above `high`). */
const EFFORT_ORDER = ['low', 'medium', 'high', 'xhigh'] as const;

/**
 * The effort for `level` among `efforts` (a model's): the level itself when the model has it, else
 * the nearest one below it (`xhigh` → `high` on a model without `xhigh`), else the lowest it has.
 * `minimal` is `minimal` where the model has it, else `low`.
 */
export function nearestEffort(level: Exclude<ThinkingLevel, 'off'>, efforts: readonly string[]): string | undefined {
  if (level === 'minimal' && efforts.includes('minimal')) return 'minimal';
  const wanted = level === 'minimal' ? 0 : EFFORT_ORDER.indexOf(level);
  for (let i = wanted; i >= 0; i--) {
    const effort = EFFORT_ORDER[i] as string;
    if (efforts.includes(effort)) return effort;
  }
  return efforts.find((effort) => effort !== 'none');
}

/**
 * OpenAI's `reasoning.effort` / `reasoning_effort` for a thinking level: `undefined` leaves the
 * model's default. For a catalog model the nearest effort it supports (`off` → `none`, else the
 * lowest it has; see {@link nearestEffort}); for a model the catalog lacks (new models,
 * OpenAI-compatible servers) only an explicit level other than `off` is sent, as `low`, `medium`
 * or `high` (`minimal` as `low`, `xhigh` as `high`), which every such server knows.
 */
export function openAIEffort(level: ThinkingLevel | undefined, style: ThinkingStyle | undefined): string | undefined {
  if (level === undefined) return undefined;
  if (style === undefined) return level === 'off' ? undefined : level === 'minimal' ? 'low' : level === 'xhigh' ? 'high' : level;
  if (style.kind !== 'effort') return undefined;
  const has = (effort: string): boolean => style.efforts.includes(effort);
  if (level === 'off') return has('none') ? 'none' : has('minimal') ? 'minimal' : style.efforts[0];
  return nearestEffort(level, style.efforts);
}

/**
 * Token budgets for the thinking levels (Anthropic manual thinking, Gemini 2.5), each capped by
 * what the model allows: `xhigh` is `high` where the cap is lower.
 */
export const THINKING_BUDGETS: Readonly<Record<Exclude<ThinkingLevel, 'off'>, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 10_240,
  high: 32_768,
  xhigh: 65_536,
};
