import type { ToolResultMessage } from '@troupe/core';
import { firstLine, printable } from './fit.js';

const ARGUMENT_WIDTH = 48;

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

function argument(value: unknown): string {
  return cut(printable(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))).replace(/\n/g, ' '), ARGUMENT_WIDTH);
}

/**
 * A tool call in a few words: `clock()`, `bash(ls -la)` (a single text argument as is),
 * `edit_file(path: a.ts, old: …)` (several, each cut).
 */
export function callSummary(toolName: string, args: Record<string, unknown>): string {
  const entries = Object.entries(args);
  if (entries.length === 0) return `${toolName}()`;
  if (entries.length === 1 && typeof entries[0]?.[1] === 'string') return `${toolName}(${argument(entries[0][1])})`;
  return `${toolName}(${entries.map(([key, value]) => `${key}: ${argument(value)}`).join(', ')})`;
}

/** A tool result's first line of text (`(no output)`, `(image)` when it has none), and whether it is an error. */
export function resultSummary(result: ToolResultMessage): { text: string; isError: boolean } {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  const line = firstLine(text);
  if (line !== '') return { text: line, isError: result.isError };
  return { text: result.content.some((part) => part.type === 'image') ? '(image)' : '(no output)', isError: result.isError };
}
