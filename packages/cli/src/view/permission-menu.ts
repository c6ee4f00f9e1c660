import type { PermissionDecision } from '@troupe/core';
import type { KeyPress } from '../cli-io.js';
import type { PromptSession } from './prompt.js';
import type { Style } from './style.js';
import { callSummary } from './tool-summary.js';

interface Choice {
  key: string;
  label: string;
  decision: PermissionDecision;
}

/** The choices, the first one the default: it runs the call once and decides nothing for later. */
const CHOICES: readonly Choice[] = [
  { key: 'y', label: 'Yes, once', decision: 'allow_once' },
  { key: 'a', label: 'Yes, and always for this tool', decision: 'allow_always' },
  { key: 'n', label: 'No, and stop the run', decision: 'deny_interrupt' },
  { key: 'v', label: 'No, never (the agent goes on without it)', decision: 'deny_never' },
];

/** What the menu asks about. */
export interface PermissionAsk {
  /** The asking actor's path. */
  path: string;
  toolName: string;
  args: Record<string, unknown>;
}

/**
 * The permission prompt: a small menu of the four decisions with "Yes, once" chosen. ↑/↓ (or
 * k/j) move, Enter takes the chosen line, a choice's letter takes it at once; any other key
 * leaves the menu up with a hint (nothing is decided by a typo).
 */
export function permissionMenu(ask: PermissionAsk, style: Style): PromptSession<PermissionDecision> {
  let chosen = 0;
  let confused = false;
  return {
    render() {
      const lines = [`${style.yellow('?')} ${style.bold(ask.path)} wants to run ${style.bold(callSummary(ask.toolName, ask.args))}`];
      CHOICES.forEach((choice, i) => {
        const label = `${choice.label}`.padEnd(44);
        lines.push(i === chosen ? style.cyan(`  ❯ ${label} ${choice.key}`) : `    ${label} ${style.dim(choice.key)}`);
      });
      lines.push(
        confused
          ? style.yellow(`  press y, a, n or v, or ↑/↓ and Enter (Enter: ${CHOICES[chosen]?.label ?? ''})`)
          : style.dim('  ↑/↓ and Enter, or a letter · Esc leaves the run waiting · Ctrl-C aborts'),
      );
      return lines;
    },
    onKey(key: KeyPress) {
      confused = false;
      if (key.name === 'return' || key.name === 'enter') return CHOICES[chosen]?.decision;
      if (key.name === 'up' || key.name === 'k') chosen = (chosen + CHOICES.length - 1) % CHOICES.length;
      else if (key.name === 'down' || key.name === 'j' || key.name === 'tab') chosen = (chosen + 1) % CHOICES.length;
      else {
        const choice = CHOICES.find((candidate) => candidate.key === key.sequence.toLowerCase());
        if (choice !== undefined) return choice.decision;
        confused = true;
      }
      return undefined;
    },
  };
}

/** A decision taken, as a note: `✓ allowed once: bash(ls)`. */
export function decisionNote(decision: PermissionDecision, ask: PermissionAsk, style: Style): string {
  const call = callSummary(ask.toolName, ask.args);
  switch (decision) {
    case 'allow_once':
      return `  ${style.green('✓')} allowed once: ${call}`;
    case 'allow_always':
      return `  ${style.green('✓')} allowed from now on: ${ask.toolName}`;
    case 'deny_interrupt':
      return `  ${style.red('✗')} denied, the run stops: ${call}`;
    case 'deny_never':
      return `  ${style.red('✗')} denied for good: ${ask.toolName}`;
  }
}
