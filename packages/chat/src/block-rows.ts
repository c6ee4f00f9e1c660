import chalk from 'chalk';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import type { AssistantBlock, Block, ToolBlock } from './chat-state.js';
import { fileDiff, renderDiff } from './file-diff.js';
import { renderMarkdown } from './markdown.js';

/** How a block is drawn. */
export interface RowOptions {
  width: number;
  /** The entry actor's path: blocks of other paths are a sub-agent's, indented and labelled. */
  entry: string;
  selected: number | undefined;
}

/** The cursor drawn after text that is still streaming. */
export const STREAM_CURSOR = '▌';

const BADGE: Record<ToolBlock['status'], string> = {
  running: chalk.yellow('[running]'),
  waiting: chalk.magenta('[approval]'),
  done: chalk.green('[ok]'),
  error: chalk.red('[error]'),
};

/** The terminal rows of one block at `width` cells. */
export function blockRows(block: Block, options: RowOptions): string[] {
  const depth = block.kind === 'notice' ? 0 : Math.max(0, block.path.split('/').length - options.entry.split('/').length);
  const indent = '  '.repeat(depth);
  const width = Math.max(10, options.width - indent.length);
  const sub = block.kind !== 'notice' && block.path !== options.entry ? chalk.blue(`${block.path} `) : '';
  const rows = rowsOf(block, width, sub, options.selected === block.id);
  return indent === '' ? rows : rows.map((row) => indent + row);
}

function rowsOf(block: Block, width: number, sub: string, selected: boolean): string[] {
  switch (block.kind) {
    case 'user':
      return wrap(`${chalk.cyan.bold('›')} ${sub}${block.text}`, width);
    case 'notice':
      return wrap(block.tone === 'error' ? chalk.red(block.text) : block.tone === 'warn' ? chalk.yellow(block.text) : chalk.dim(block.text), width);
    case 'assistant': {
      const rows = thinkingRows(block, width, selected);
      const text = renderMarkdown(block.text, block.plan ? width - 2 : width);
      if (block.streaming) text[text.length - 1] = `${text.at(-1) ?? ''}${STREAM_CURSOR}`;
      if (!block.plan) return [...(sub === '' ? [] : [sub.trimEnd()]), ...rows, ...text];
      return [chalk.magenta.bold(`┃ PLAN${sub === '' ? '' : ` · ${sub.trim()}`}`), ...[...rows, ...text].map((row) => `${chalk.magenta('┃')} ${row}`)];
    }
    case 'tool':
      return toolRows(block, width, sub, selected);
  }
}

/** A reply's thinking: one line (collapsed, the default), or its text under a header (F2 on the selected reply). */
function thinkingRows(block: AssistantBlock, width: number, selected: boolean): string[] {
  if (block.thinking.length === 0) return [];
  const mark = selected ? chalk.inverse('▸') : block.thinkingExpanded ? '▾' : '▸';
  if (!block.thinkingExpanded) return [truncate(`${mark} ${chalk.dim.italic(`∴ thinking (${block.thinking.length} chars, collapsed · F2)`)}`, width)];
  const body = block.thinking
    .replace(/\n+$/, '')
    .split('\n')
    .flatMap((row) => wrap(chalk.dim.italic(row), width - 2));
  return [`${mark} ${chalk.dim.italic('∴ thinking')}`, ...body.map((row) => `${chalk.dim('│')} ${row}`)];
}

function toolRows(block: ToolBlock, width: number, sub: string, selected: boolean): string[] {
  const mark = selected ? chalk.inverse('▸') : block.expanded ? '▾' : '▸';
  const first = firstLine(block.output);
  const header = `${mark} ${sub}${chalk.bold(block.name)}${chalk.dim(`(${argsSummary(block.args)})`)} ${BADGE[block.status]}`;
  if (!block.expanded) return [truncate(first === '' ? header : `${header} ${chalk.dim(first)}`, width)];
  const body: string[] = [];
  const diff = fileDiff(block.name, block.args);
  if (diff !== undefined && block.status !== 'error') body.push(...renderDiff(diff));
  if (diff === undefined || block.status === 'error') body.push(...block.output.split('\n').filter((row, i, all) => row !== '' || i < all.length - 1));
  if (diff !== undefined && block.status === 'done' && first !== '') body.push(chalk.dim(first));
  return [truncate(header, width), ...body.flatMap((row) => wrap(row, width - 2)).map((row) => `${chalk.dim('│')} ${row}`)];
}

function argsSummary(args: Record<string, unknown>): string {
  const path = args['path'];
  if (typeof path === 'string') return path;
  const command = args['command'];
  if (typeof command === 'string') return firstLine(command);
  const text = JSON.stringify(args);
  return text === '{}' ? '' : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function firstLine(text: string): string {
  return text.split('\n').find((row) => row.trim() !== '') ?? '';
}

function wrap(text: string, width: number): string[] {
  return wrapAnsi(text, width, { hard: true, trim: false }).split('\n');
}

/** Cuts a row to `width` cells (with an ellipsis). */
export function truncate(row: string, width: number): string {
  if (stringWidth(row) <= width) return row;
  return `${wrapAnsi(row, width - 1, { hard: true, trim: false }).split('\n')[0] ?? ''}…`;
}
