/**
 * Reading the statechart's outbox (see `MachineOutput`): which items are effect commands, which are
 * changes to the history, and the history those changes leave.
 */
import type { EffectCommand, HistoryOp, MachineOutput } from './machine-types.js';
import type { Message } from './messages.js';

/** Whether an outbox item is a command for the effects. */
export function isCommand(item: MachineOutput): item is EffectCommand {
  return item.type.startsWith('cmd.');
}

/** Whether an outbox item is a change to the history. */
export function isHistoryOp(item: MachineOutput): item is HistoryOp {
  return item.type === 'history.append' || item.type === 'history.replace';
}

/**
 * `history` after the history changes in `outbox`, in order: appends go to `history` in place (a
 * turn costs what it adds); a replacement is a new array, a copy, since the event's array belongs
 * to its sender.
 */
export function applyHistoryOps(history: Message[], outbox: readonly MachineOutput[]): Message[] {
  let current = history;
  for (const item of outbox) {
    if (item.type === 'history.append') current.push(item.message);
    else if (item.type === 'history.replace') current = [...item.messages];
  }
  return current;
}
