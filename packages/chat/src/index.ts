export {
  addNotice,
  answered,
  approvalChoices,
  automaticDecision,
  clearView,
  collapseBlock,
  modelSwitched,
  selectBlock,
  setApproval,
  setMode,
  toggleBlock,
  trustTool,
} from './chat-actions.js';
export { reduceEvent } from './chat-events.js';
export { initialChatState } from './chat-state.js';
export { gaugeBar, gaugeLevel, gaugePercent } from './context-gauge.js';
export { fileDiff, renderDiff } from './file-diff.js';
export { executePlanMessage, latestPlan, PLAN_PREFIX, planAwareTools, promptFor } from './plan-mode.js';
export { agentChatSession } from './agent-session.js';
export { openRuntimeChat } from './runtime-session.js';
export { graphModelSpec, graphModelSwitch } from './model-switch.js';
export { defaultChatGraph, modelFromEnv, OFFLINE_NOTE } from './default-graph.js';
export { editExternally, editorCommand } from './external-editor.js';
export { parseSlashCommand, HELP_TEXT } from './slash-command.js';
export { ChatApp } from './ui/chat-app.js';
export { AUTO_COLLAPSE_MS } from './ui/use-chat-session.js';
export { runChat } from './run-chat.js';

export type { ApprovalMode, AssistantBlock, Block, ChatMode, ChatState, ContextFill, NoticeBlock, PendingAsk, ToolBlock, UserBlock } from './chat-state.js';
export type { ChatSession } from './chat-session.js';
export type { AgentChatSessionOptions } from './agent-session.js';
export type { RuntimeChatOptions } from './runtime-session.js';
export type { ModelSwitch } from './model-switch.js';
export type { DiffRow } from './file-diff.js';
export type { GaugeLevel } from './context-gauge.js';
export type { ExternalEditorOptions } from './external-editor.js';
export type { SlashCommand } from './slash-command.js';
export type { ChatAppProps, ChatTerminal } from './ui/chat-app.js';
export type { RunChatOptions } from './run-chat.js';
