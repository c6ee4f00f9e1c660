/** Small formatters shared by the pages. */
import type { Usage } from './types.js';

/** `$0.0123`, or `-` when nothing was spent or the price is unknown. */
export function formatCost(usage: Usage | undefined): string {
  if (usage === undefined || usage.cost.unknown === true) return '-';
  return usage.cost.total === 0 ? '$0' : `$${usage.cost.total.toFixed(4)}`;
}

/** `1.23s`, `2m 03s`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)}s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/** `2026-11-26 23:30:15`, local time. */
export function formatTime(ts: number): string {
  const d = new Date(ts);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A value as one short line of JSON. */
export function short(value: unknown, max = 160): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
