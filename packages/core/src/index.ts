export { Agent } from './agent.js';
export { agentMachine } from './agent-machine.js';
export { parseAgentSnapshot, SNAPSHOT_SCHEMA_VERSION, withHistory } from './agent-snapshot.js';
export { isSnapshotActive, snapshotResult, snapshotState } from './snapshot-result.js';
export { systemClock } from './clock.js';
export { defaultCompactionStrategies } from './compaction/compaction-cascade.js';
export { DROPPED_TURNS_MARKER, dropOldestTurns } from './compaction/drop-oldest-turns.js';
export { summarizeOlderTurns } from './compaction/summarize-older-turns.js';
export { SUMMARY_HEADER, SUMMARY_INSTRUCTIONS, SUMMARY_SYSTEM_PROMPT } from './compaction/summary-prompt.js';
export { messagesTokens, messageTokens } from './compaction/token-estimate.js';
export { truncateToolResults } from './compaction/truncate-tool-results.js';
export { AgentStateError, ErrorCode, toErrorInfo, TroupeError } from './errors.js';
export { childPath, createRunId, createSessionId, parseAgentPath, parseRunId } from './ids.js';
export { denyPatterns, inputText, maxInputLength, rewriteInput } from './input-guardrails.js';
export {
  cancelText,
  errorResult,
  INCOMPLETE_TOOL_CALL,
  INTERRUPT_EXPLANATION,
  INTERRUPT_TOOL,
  INTERRUPT_USER,
  INTERRUPTED_BY_RESTORE,
  INTERRUPTED_TOOL_RESULT,
  LIMIT_REACHED,
  permissionDenied,
  permissionDeniedPermanently,
  SKIPPED_BY_STEERING,
  STREAM_ABORTED,
  TASK_REMINDER,
  toolExecutionError,
} from './interrupts.js';
export { DEFAULT_MAX_TURNS, limitNotice, limitReached, MAX_ITERATIONS_REACHED, resolveLimits } from './limits.js';
export { NOTICE_MODEL } from './machine-steps.js';
export { inModelContext, textOf, toLlmMessages, toolCallsOf, userMessage } from './messages.js';
export { DEFAULT_PERMISSIONS, evaluatePermission, PERMISSION_DECISIONS } from './permissions.js';
export { THINKING_LEVELS } from './provider.js';
export { exponentialBackoff, noRetry } from './retry-strategy.js';
export { SchemaValidator, sharedSchemaValidator } from './schema-validator.js';
export { DEFAULT_OUTPUT_RETRIES, jsonInstruction, outputInstruction, parseJsonOutput, retryInstruction } from './structured-output.js';
export { defineTool, isRepeatable } from './tool.js';
export { isToolSource, ToolSet } from './tool-set.js';
export { addUsage, emptyUsage } from './usage.js';

export type { PromptInput, RunOptions } from './prompt-input.js';
export type { AgentMachine, AgentMachineInput } from './agent-machine.js';
export type { AgentHooks, HookContext, RunHookContext, TurnEndContext } from './agent-hooks.js';
export type { AgentOptions, Completion, QueueMode, ToolExecution } from './agent-options.js';
export type { AgentChanges, ModelSettings } from './agent-settings.js';
export type { AgentResult, AgentStateName, LimitHit, RunStopReason } from './agent-result.js';
export type { AgentCheckpoint, AgentSnapshot, CheckpointMark } from './agent-snapshot.js';
export type { Clock, TimerHandle } from './clock.js';
export type { CompactionContext, CompactionInfo, CompactionOptions, CompactionReason, CompactionStrategy } from './compaction/compaction-strategy.js';
export type { ContextView } from './compaction/context-view.js';
export type { DropOldestTurnsOptions } from './compaction/drop-oldest-turns.js';
export type { SummarizeOlderTurnsOptions } from './compaction/summarize-older-turns.js';
export type { TruncateToolResultsOptions } from './compaction/truncate-tool-results.js';
export type { ErrorInfo } from './errors.js';
export type { AgentEvent, AgentEventOf, AgentEventPayload, AgentEventType, EventEnvelope } from './events.js';
export type { AgentPath, Brand, RunId } from './ids.js';
export type { CancelReason } from './interrupts.js';
export type { Limits } from './limits.js';
export type { DenyPatternsOptions, GuardrailInput, GuardrailVerdict, InputGuardrail } from './input-guardrails.js';
export type {
  AgentContext,
  AgentMachineEvent,
  EffectCommand,
  MachineSettings,
  PendingInput,
  QueueName,
  RunState,
  SuspendedCall,
  ToolBatch,
} from './machine-types.js';
export type {
  AssistantContent,
  AssistantMessage,
  CustomMessage,
  ImageContent,
  LlmMessage,
  Message,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  UserContent,
  UserMessage,
} from './messages.js';
export type { PermissionDecision, PermissionFunction, PermissionPolicy, PermissionRules, PermissionVerdict, RememberedPermissions } from './permissions.js';
export type {
  Provider,
  ProviderCallOptions,
  ProviderErrorKind,
  ProviderEvent,
  ProviderFailure,
  ProviderRequest,
  StreamDelta,
  ThinkingLevel,
  ToolDefinition,
} from './provider.js';
export type { ExponentialBackoffOptions, RetryStrategy } from './retry-strategy.js';
export type { StreamingMessage } from './streaming-message.js';
export type { JsonOutcome } from './structured-output.js';
export type { ValidationResult, Validator } from './schema-validator.js';
export type { Tool, ToolContext, ToolControl, ToolResult, ToolSource } from './tool.js';
export type { ToolSnapshot } from './tool-set.js';
export type { Cost, Usage } from './usage.js';
