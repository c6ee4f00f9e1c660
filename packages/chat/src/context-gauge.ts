import type { ContextFill } from './chat-state.js';

/** The gauge's colour: green below 60%, yellow from 60% to 85%, red above 85%. */
export type GaugeLevel = 'green' | 'yellow' | 'red';

/** The fill in whole percent (0 when the window is unknown), capped at 100. */
export function gaugePercent(fill: ContextFill): number {
  if (fill.window === undefined || fill.window <= 0) return 0;
  return Math.min(100, Math.round((fill.tokens / fill.window) * 100));
}

/** The colour of `percent`. */
export function gaugeLevel(percent: number): GaugeLevel {
  if (percent > 85) return 'red';
  if (percent >= 60) return 'yellow';
  return 'green';
}

/** A bar of `width` cells, filled in proportion to `percent`. */
export function gaugeBar(percent: number, width: number): string {
  const filled = Math.round((Math.max(0, Math.min(100, percent)) / 100) * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
}
