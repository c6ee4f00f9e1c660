import { formatCost, nameOf, plural, type ActorRow } from './actor-tree.js';
import stringWidth from 'string-width';
import { printable, wrapToWidth } from './fit.js';
import type { Style } from './style.js';

/** `0.4s`, `12s`, `3m05s`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  if (seconds < 60) return `${Math.floor(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}

/** What a row is doing, in words: `thinking 1.2s`, `running web_search 3.0s`, `done`. */
function activity(row: ActorRow, now: number, style: Style): string {
  const elapsed = (since: number | undefined): string => (since === undefined ? '' : ` ${formatElapsed(now - since)}`);
  switch (row.state) {
    case 'thinking':
      return style.cyan(`thinking${elapsed(row.since)}`);
    case 'tool_executing': {
      if (row.tools.length === 0) return style.cyan(`running tools${elapsed(row.since)}`);
      const names = row.tools.map((tool) => tool.name).join(', ');
      return style.cyan(`running ${names}${elapsed(row.tools[0]?.since)}`);
    }
    case 'waiting_user':
      return style.yellow('waiting for you');
    case 'done':
      return row.stopReason === undefined || row.stopReason === 'stop' ? style.green('done') : style.yellow(`done (${row.stopReason})`);
    case 'aborted':
      return style.yellow('aborted');
    case 'error':
      return style.red('failed');
    case 'idle':
      return style.dim('idle');
    case 'queued':
      return style.dim('queued');
    case 'pending':
      return style.dim('pending');
  }
}

/** An actor's mark: ● while it works, ✓ done, ✗ failed, ■ aborted, ? waiting for a person, · not started. */
function markOf(state: ActorRow['state'], style: Style): string {
  switch (state) {
    case 'done':
      return style.green('✓');
    case 'error':
      return style.red('✗');
    case 'aborted':
      return style.yellow('■');
    case 'waiting_user':
      return style.yellow('?');
    case 'pending':
    case 'queued':
    case 'idle':
      return style.dim('·');
    default:
      return style.cyan('●');
  }
}

/** A group's activity from the actors below it: `2 running, 1 done`, or `pending`. */
function groupActivity(row: ActorRow, style: Style): string {
  const counts = row.counts ?? { running: 0, ended: 0, waiting: 0 };
  const parts = [counts.running > 0 ? `${counts.running} running` : '', counts.ended > 0 ? `${counts.ended} done` : ''].filter((part) => part !== '');
  return parts.length === 0 ? style.dim('pending') : counts.running > 0 ? style.cyan(parts.join(', ')) : style.green(parts.join(', '));
}

/** A group's mark: running while any actor below it runs, done once they all have ended. */
function groupMark(row: ActorRow, style: Style): string {
  const counts = row.counts ?? { running: 0, ended: 0, waiting: 0 };
  if (counts.running > 0) return style.cyan('●');
  return counts.ended > 0 && counts.waiting === 0 ? style.green('✓') : '·';
}

/** A row's name: the last segment of its path (`researcher#2`), `#3` for a map item. */
function label(row: ActorRow): string {
  const name = nameOf(row.path);
  return /^\d+$/.test(name) ? `#${name}` : name;
}

/**
 * The live area's lines for a run's actor tree: one row per actor, drawn as a tree, each with a
 * mark, its name, what it does now (the running tool's name and how long it has run, `thinking
 * 1.2s`), its turns, tokens and cost (when it has any), and below it what its running tools last
 * reported, wrapped to `width` (other rows are cut by the screen).
 */
export function statusLines(rows: readonly ActorRow[], now: number, style: Style, width = Number.POSITIVE_INFINITY): string[] {
  const lines: string[] = [];
  // The tree's guide columns: for each depth, whether an ancestor at that depth has later siblings.
  const open: boolean[] = [];
  rows.forEach((row) => {
    open.length = row.depth;
    const guides = open
      .slice(1)
      .map((more) => (more ? '│ ' : '  '))
      .join('');
    const branch = row.depth === 0 ? '' : `${guides}${row.last ? '└ ' : '├ '}`;
    open.push(!row.last);
    if (row.kind === 'group') {
      lines.push(`${style.dim(branch)}${groupMark(row, style)} ${style.bold(label(row))} · ${groupActivity(row, style)}`);
      return;
    }
    const mark = markOf(row.state, style);
    const metrics = [
      row.turns > 0 ? plural(row.turns, 'turn') : '',
      row.usage.totalTokens > 0 ? plural(row.usage.totalTokens, 'token') : '',
      row.usage.cost.total > 0 || row.usage.cost.unknown === true ? formatCost(row.usage) : '',
    ]
      .filter((part) => part !== '')
      .join(' · ');
    lines.push(`${style.dim(branch)}${mark} ${style.bold(label(row))} · ${activity(row, now, style)}${metrics === '' ? '' : style.dim(` · ${metrics}`)}`);
    // What each running tool last reported (`waiting for a worker to take …`), word-wrapped below it.
    const indent = `${guides}${row.depth === 0 ? '' : row.last ? '  ' : '│ '}  `;
    for (const tool of row.tools) {
      if (tool.progress === undefined) continue;
      wrapToWidth(`⎿ ${printable(tool.progress)}`, Math.max(20, width - stringWidth(indent) - 2)).forEach((part, i) => {
        lines.push(style.dim(`${indent}${i === 0 ? '' : '  '}${part}`));
      });
    }
  });
  return lines;
}
