import type { ApprovalMode } from './chat-state.js';

/** A command typed in the input editor. */
export type SlashCommand =
  | { type: 'quit' }
  | { type: 'help' }
  | { type: 'clear' }
  | { type: 'plan' }
  | { type: 'editor' }
  /** `/model` shows the model, `/model name` switches to it. */
  | { type: 'model'; name: string | undefined }
  | { type: 'approve'; mode: ApprovalMode | undefined }
  | { type: 'unknown'; name: string };

/** What the chat's commands do, for `/help`. */
export const HELP_TEXT = [
  'Enter sends · Shift+Enter or Alt+Enter: new line · Ctrl+P / Ctrl+N: earlier inputs',
  '↑ ↓ PgUp PgDn or the mouse wheel scroll · F2 expands/collapses the selected tool block or thinking · Shift+← / Shift+→ select them',
  'Shift+Tab or /plan: Plan ⇄ Execute · Esc or Ctrl+C aborts the turn · Ctrl+C twice when idle, Ctrl+Q or /quit exits',
  '/approve on|smart|off · /editor opens $EDITOR · /model [provider:model] · /clear · /help',
  'Approvals: y allow once · a always for this session · n deny · s deny and stop',
].join('\n');

/** The command `text` names, or undefined when it is not a command (it does not start with `/`). */
export function parseSlashCommand(text: string): SlashCommand | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const [name = '', argument] = trimmed.slice(1).split(/\s+/);
  switch (name) {
    case 'quit':
    case 'exit':
      return { type: 'quit' };
    case 'help':
      return { type: 'help' };
    case 'clear':
      return { type: 'clear' };
    case 'plan':
      return { type: 'plan' };
    case 'editor':
      return { type: 'editor' };
    case 'model':
      return { type: 'model', name: argument };
    case 'approve':
      return { type: 'approve', mode: argument === 'on' || argument === 'smart' || argument === 'off' ? argument : undefined };
    default:
      return { type: 'unknown', name };
  }
}
