import { messageTokens, textOf, type AgentEvent, type Message } from '@troupe/core';
import { PLAN_PREFIX, shownUserText } from './plan-mode.js';
import { updateLast, withBlock, type AssistantBlock, type Block, type ChatState, type ToolBlock } from './chat-state.js';

const isAssistant =
  (path: string) =>
  (block: Block): block is AssistantBlock =>
    block.kind === 'assistant' && block.path === path;
const isTool =
  (callId: string) =>
  (block: Block): block is ToolBlock =>
    block.kind === 'tool' && block.callId === callId;

/**
 * The chat after one event of the run (of the entry or of any sub-agent): streamed text and
 * thinking grow the reply being written, tools become blocks (new ones expanded), questions and
 * permission requests wait in `asks`, and the status bar's figures follow the entry.
 */
export function reduceEvent(state: ChatState, event: AgentEvent): ChatState {
  const path = event.agentPath as string;
  const entry = path === state.entry;
  switch (event.type) {
    case 'agent_start':
      return entry ? { ...state, running: true } : state;
    case 'state':
      return entry ? { ...state, agentState: event.state } : state;
    case 'message_start':
      if (event.role !== 'assistant') return state;
      return withBlock(state, { kind: 'assistant', path, text: '', thinking: '', thinkingExpanded: false, streaming: true, plan: state.mode === 'plan' });
    case 'message_update': {
      const delta = event.delta;
      if (delta.type === 'text_delta') return updateLast(state, isAssistant(path), (b) => ({ ...b, text: b.text + delta.delta }));
      if (delta.type === 'thinking_delta') return updateLast(state, isAssistant(path), (b) => ({ ...b, thinking: b.thinking + delta.delta }));
      return state;
    }
    case 'message_end':
      return messageEnded(state, path, entry, event.message, event.failed !== undefined);
    case 'tool_start':
      // A call that asked first already has its block (made at its permission request).
      if (state.blocks.some(isTool(event.toolCallId))) return updateLast(state, isTool(event.toolCallId), (b) => ({ ...b, status: 'running' }) as ToolBlock);
      return withBlock(state, {
        kind: 'tool',
        path,
        callId: event.toolCallId,
        name: event.toolName,
        args: event.args,
        status: 'running',
        output: '',
        expanded: true,
        pinned: false,
      });
    case 'tool_update':
      return event.progress === undefined ? state : updateLast(state, isTool(event.toolCallId), (b) => ({ ...b, output: event.progress ?? b.output }));
    case 'tool_end': {
      const output = textOf(event.result);
      const ended = updateLast(state, isTool(event.toolCallId), (b) => ({ ...b, status: event.result.isError ? 'error' : 'done', output }) as ToolBlock);
      return { ...ended, asks: ended.asks.filter((ask) => ask.callId !== event.toolCallId) };
    }
    case 'permission_request': {
      // The call shows (a file edit as its diff) while the user decides.
      const waiting = withBlock(state, {
        kind: 'tool',
        path,
        callId: event.toolCallId,
        name: event.toolName,
        args: event.args,
        status: 'waiting',
        output: '',
        expanded: true,
        pinned: false,
      });
      return { ...waiting, asks: [...waiting.asks, { kind: 'permission', path, callId: event.toolCallId, toolName: event.toolName, args: event.args }] };
    }
    case 'question':
      return { ...state, asks: [...state.asks, { kind: 'question', path, callId: event.toolCallId, question: event.question }] };
    case 'usage':
      return { ...state, tokens: state.tokens + event.usage.totalTokens, cost: state.cost + event.usage.cost.total };
    case 'turn_end':
      return entry ? { ...state, turns: state.turns + 1, context: { ...state.context, tokens: state.contextSoFar } } : state;
    case 'compaction':
      return entry ? { ...state, contextSoFar: event.tokensAfter, context: { ...state.context, tokens: event.tokensAfter } } : state;
    case 'error':
      return withBlock(state, { kind: 'notice', text: `${entry ? '' : `${path}: `}${event.error.message}`, tone: 'error' });
    case 'agent_end': {
      if (!entry) return state;
      const ended: ChatState = { ...state, running: false, asks: [], context: { ...state.context, tokens: state.contextSoFar } };
      const closed = { ...ended, blocks: ended.blocks.map((b) => (b.kind === 'assistant' && b.streaming ? { ...b, streaming: false } : b)) };
      const reason = event.result.stopReason;
      if (reason === 'aborted') return withBlock(closed, { kind: 'notice', text: '■ aborted', tone: 'warn' });
      if (reason === 'limit' || reason === 'interrupted' || reason === 'refusal')
        return withBlock(closed, { kind: 'notice', text: `■ stopped: ${reason}`, tone: 'warn' });
      return closed;
    }
    default:
      return state;
  }
}

/** A message is complete: a user message joins the view, a reply takes its final text (a failed attempt is dropped: its retry streams again). */
function messageEnded(state: ChatState, path: string, entry: boolean, message: Message | undefined, failed: boolean): ChatState {
  if (failed) return { ...state, blocks: removeLast(state.blocks, isAssistant(path)) };
  if (message === undefined) return state;
  const counted = entry ? { ...state, contextSoFar: state.contextSoFar + messageTokens(message) } : state;
  if (message.role === 'user' && entry) {
    // A prompt sent in plan mode carries the plan prefix: replies to it are a plan (this also labels a resumed chat's plans).
    const mode = textOf(message).startsWith(PLAN_PREFIX) ? 'plan' : 'execute';
    return withBlock({ ...counted, mode }, { kind: 'user', path, text: shownUserText(textOf(message)) });
  }
  if (message.role !== 'assistant') return counted;
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const thinking = message.content.flatMap((part) => (part.type === 'thinking' ? [part.thinking] : [])).join('');
  const notice = message.stopReason === 'error' ? (message.errorMessage ?? 'the model call failed') : undefined;
  const ended = updateLast(counted, isAssistant(path), (b) => ({ ...b, text, thinking, streaming: false }));
  // A reply whose message_start was missed (a resumed run's replayed events begin mid-run).
  const shown =
    ended === counted && text.length > 0
      ? withBlock(counted, { kind: 'assistant', path, text, thinking, thinkingExpanded: false, streaming: false, plan: counted.mode === 'plan' })
      : ended;
  return notice === undefined ? shown : withBlock(shown, { kind: 'notice', text: notice, tone: 'error' });
}

function removeLast(blocks: Block[], match: (block: Block) => boolean): Block[] {
  for (let i = blocks.length - 1; i >= 0; i -= 1) {
    const block = blocks[i];
    if (block !== undefined && match(block)) return [...blocks.slice(0, i), ...blocks.slice(i + 1)];
  }
  return blocks;
}
