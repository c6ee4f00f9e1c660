import type { AgentStateName } from '@troupe/core';

/** Plan (read-only tools, output labelled PLAN) or Execute (every tool). */
export type ChatMode = 'plan' | 'execute';

/** `/approve on` asks for every tool that needs approval, `smart` (default) trusts tools approved "always", `off` runs everything. */
export type ApprovalMode = 'on' | 'smart' | 'off';

/** A user message of the conversation. */
export interface UserBlock {
  kind: 'user';
  id: number;
  path: string;
  text: string;
}

/** A reply of the model, as far as it has streamed. */
export interface AssistantBlock {
  kind: 'assistant';
  id: number;
  path: string;
  text: string;
  thinking: string;
  /** Its thinking shown in full (F2 on the selected block); one line by default. */
  thinkingExpanded: boolean;
  /** Still streaming: the view draws a cursor after it. */
  streaming: boolean;
  /** Written in plan mode: labelled PLAN. */
  plan: boolean;
}

/** One tool call and its result. */
export interface ToolBlock {
  kind: 'tool';
  id: number;
  path: string;
  callId: string;
  name: string;
  args: Record<string, unknown>;
  status: 'running' | 'done' | 'error' | 'waiting';
  /** The result's text (or the latest progress while running). */
  output: string;
  expanded: boolean;
  /** Set once the user toggled it: it no longer collapses by itself. */
  pinned: boolean;
}

/** Something the chat itself says (aborted, an error, a command's answer). */
export interface NoticeBlock {
  kind: 'notice';
  id: number;
  text: string;
  tone: 'info' | 'warn' | 'error';
}

/** One entry of the conversation view. */
export type Block = UserBlock | AssistantBlock | ToolBlock | NoticeBlock;

/** What an actor of the run waits for the user to answer. */
export type PendingAsk =
  | { kind: 'permission'; path: string; callId: string; toolName: string; args: Record<string, unknown> }
  | { kind: 'question'; path: string; callId: string; question: string };

/** The estimated fill of the model's context window. */
export interface ContextFill {
  tokens: number;
  /** The model's window, when known. */
  window: number | undefined;
}

/** Everything the chat shows, as plain data: the view is a function of it. */
export interface ChatState {
  /** The entry actor's path: its state is the one in the status bar, other paths are sub-agents. */
  entry: string;
  model: string;
  blocks: Block[];
  nextId: number;
  mode: ChatMode;
  approval: ApprovalMode;
  /** Tools the user chose to always allow in this session (smart mode). */
  trusted: string[];
  agentState: AgentStateName;
  /** Whether a run of the entry is going on. */
  running: boolean;
  turns: number;
  tokens: number;
  cost: number;
  context: ContextFill;
  /** Estimated tokens of the entry's history so far; shown in `context` at each turn's end (not per delta, to avoid flicker). */
  contextSoFar: number;
  /** The selected block (Shift+←/→, F2): a tool block or a reply with thinking, by block id. */
  selected: number | undefined;
  /** Questions and permission requests not answered yet, oldest first. */
  asks: PendingAsk[];
}

/** A fresh chat on `model` whose entry actor is `entry`. */
export function initialChatState(options: { entry: string; model: string; contextWindow?: number; mode?: ChatMode; approval?: ApprovalMode }): ChatState {
  return {
    entry: options.entry,
    model: options.model,
    blocks: [],
    nextId: 1,
    mode: options.mode ?? 'execute',
    approval: options.approval ?? 'smart',
    trusted: [],
    agentState: 'idle',
    running: false,
    turns: 0,
    tokens: 0,
    cost: 0,
    context: { tokens: 0, window: options.contextWindow },
    contextSoFar: 0,
    selected: undefined,
    asks: [],
  };
}

/** `state` with `block` added at the end. */
export function withBlock(state: ChatState, block: DistributiveOmit<Block, 'id'>): ChatState {
  return { ...state, blocks: [...state.blocks, { ...block, id: state.nextId } as Block], nextId: state.nextId + 1 };
}

/** `state` with the last block matching `match` changed by `change` (unchanged when none matches). */
export function updateLast<B extends Block>(state: ChatState, match: (block: Block) => block is B, change: (block: B) => B): ChatState {
  for (let i = state.blocks.length - 1; i >= 0; i -= 1) {
    const block = state.blocks[i];
    if (block !== undefined && match(block)) {
      const blocks = [...state.blocks];
      blocks[i] = change(block);
      return { ...state, blocks };
    }
  }
  return state;
}

/** `Omit` applied to each member of a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
