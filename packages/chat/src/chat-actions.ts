import type { PermissionDecision } from '@troupe/core';
import { withBlock, type ApprovalMode, type Block, type ChatMode, type ChatState, type PendingAsk } from './chat-state.js';

/** Whether F2 can expand `block`: a tool block, or a reply with thinking. */
const isSelectable = (block: Block): boolean => block.kind === 'tool' || (block.kind === 'assistant' && block.thinking !== '');

/**
 * F2: expands or collapses the selected block (the latest one when none is selected): a tool
 * block's call and output, or a reply's thinking. A toggled tool block stays as the user left it.
 */
export function toggleBlock(state: ChatState): ChatState {
  const id = state.selected ?? state.blocks.filter(isSelectable).at(-1)?.id;
  if (id === undefined) return state;
  const toggled = (b: Block): Block => {
    if (b.id !== id) return b;
    if (b.kind === 'tool') return { ...b, expanded: !b.expanded, pinned: true };
    return b.kind === 'assistant' ? { ...b, thinkingExpanded: !b.thinkingExpanded } : b;
  };
  return { ...state, selected: id, blocks: state.blocks.map(toggled) };
}

/** The 3-second auto-collapse of a new tool block; a block the user toggled is left alone. */
export function collapseBlock(state: ChatState, id: number): ChatState {
  const block = state.blocks.find((b) => b.id === id);
  if (block?.kind !== 'tool' || block.pinned || !block.expanded || block.status === 'running' || block.status === 'waiting') return state;
  return { ...state, blocks: state.blocks.map((b) => (b.id === id ? { ...block, expanded: false } : b)) };
}

/** Shift+← / Shift+→: selects the previous or next tool block or reply with thinking (from the latest when none is selected). */
export function selectBlock(state: ChatState, step: -1 | 1): ChatState {
  const selectable = state.blocks.filter(isSelectable);
  if (selectable.length === 0) return state;
  const at = selectable.findIndex((b) => b.id === state.selected);
  const next = at === -1 ? selectable.length - 1 : Math.min(selectable.length - 1, Math.max(0, at + step));
  return { ...state, selected: selectable[next]?.id };
}

/** Plan or Execute. */
export function setMode(state: ChatState, mode: ChatMode): ChatState {
  return { ...state, mode };
}

/** `/approve on|smart|off`. */
export function setApproval(state: ChatState, approval: ApprovalMode): ChatState {
  return { ...state, approval };
}

/** Remembers that `tool` is always allowed for the rest of the session. */
export function trustTool(state: ChatState, tool: string): ChatState {
  return state.trusted.includes(tool) ? state : { ...state, trusted: [...state.trusted, tool] };
}

/** `/model`: the entry runs on `model` from its next turn; the gauge takes the new window (unknown: no gauge). */
export function modelSwitched(state: ChatState, model: string, contextWindow: number | undefined): ChatState {
  const switched = { ...state, model, context: { ...state.context, window: contextWindow } };
  return addNotice(switched, `model: ${model} from the next turn${contextWindow === undefined ? ' (context window unknown)' : ''}`);
}

/** Adds a notice of the chat's own. */
export function addNotice(state: ChatState, text: string, tone: 'info' | 'warn' | 'error' = 'info'): ChatState {
  return withBlock(state, { kind: 'notice', text, tone });
}

/** `/clear`: empties the view (the run's record keeps everything). */
export function clearView(state: ChatState): ChatState {
  return { ...state, blocks: [], selected: undefined };
}

/** Takes an answered ask off the list. */
export function answered(state: ChatState, ask: PendingAsk): ChatState {
  return { ...state, asks: state.asks.filter((a) => a !== ask) };
}

/**
 * What the chat answers by itself to a permission request, or `ask` to ask the user. The agent's
 * policy has already run read-only tools without asking (they never reach here); of the others,
 * `off` allows everything, `smart` allows the tools the user trusted for the session, and `on`
 * asks every time.
 */
export function automaticDecision(state: Pick<ChatState, 'approval' | 'trusted'>, toolName: string): Extract<PermissionDecision, 'allow_once'> | 'ask' {
  if (state.approval === 'off') return 'allow_once';
  if (state.approval === 'smart' && state.trusted.includes(toolName)) return 'allow_once';
  return 'ask';
}

/** The user's answers to a permission request, by key; `always` only where session trust applies (smart mode). */
export function approvalChoices(approval: ApprovalMode): { key: string; label: string; decision: PermissionDecision; trust?: true }[] {
  return [
    { key: 'y', label: 'allow once', decision: 'allow_once' },
    ...(approval === 'smart' ? [{ key: 'a', label: 'always (this session)', decision: 'allow_once' as const, trust: true as const }] : []),
    { key: 'n', label: 'deny (for the session)', decision: 'deny_never' },
    { key: 's', label: 'deny and stop', decision: 'deny_interrupt' },
  ];
}
