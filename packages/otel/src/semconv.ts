/**
 * The attribute, span and metric names Troupe emits. GenAI names follow the OpenTelemetry GenAI
 * semantic conventions (incubating in `@opentelemetry/semantic-conventions` 1.45, which a test
 * checks these against); `troupe.*` names cover what no convention names yet. Kept here as plain
 * strings so the package needs only `@opentelemetry/api` at run time.
 */
export const GenAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestTemperature: 'gen_ai.request.temperature',
  requestTopP: 'gen_ai.request.top_p',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  usageCacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  usageReasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  agentDescription: 'gen_ai.agent.description',
  conversationId: 'gen_ai.conversation.id',
  workflowName: 'gen_ai.workflow.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  tokenType: 'gen_ai.token.type',
  errorType: 'error.type',
} as const;

/** Values of `gen_ai.operation.name`. */
export const Operation = {
  chat: 'chat',
  invokeAgent: 'invoke_agent',
  invokeWorkflow: 'invoke_workflow',
  executeTool: 'execute_tool',
} as const;

/** Troupe's own attributes, where no convention exists. */
export const TroupeAttr = {
  runId: 'troupe.run.id',
  runStatus: 'troupe.run.status',
  runResumed: 'troupe.run.resumed',
  stopReason: 'troupe.stop_reason',
  costUsd: 'troupe.usage.cost_usd',
  agentPath: 'troupe.agent.path',
  agentTurns: 'troupe.agent.turns',
  agentRestored: 'troupe.agent.restored',
  agentSetAside: 'troupe.agent.set_aside',
  hostId: 'troupe.host.id',
  stepId: 'troupe.step.id',
  stepKind: 'troupe.step.kind',
  pipelineName: 'troupe.pipeline.name',
  attempts: 'troupe.model.attempts',
  retryAttempt: 'troupe.retry.attempt',
  retryDelayMs: 'troupe.retry.delay_ms',
  waitMs: 'troupe.tool.wait_ms',
  waitKind: 'troupe.wait.kind',
  question: 'troupe.question',
  aborted: 'troupe.aborted',
  denied: 'troupe.permission.denied',
  linkKind: 'troupe.link.kind',
  compactionReason: 'troupe.compaction.reason',
  compactionStrategy: 'troupe.compaction.strategy',
  compactionTokensBefore: 'troupe.compaction.tokens_before',
  compactionTokensAfter: 'troupe.compaction.tokens_after',
  compactionRemovedMessages: 'troupe.compaction.removed_messages',
} as const;

/** Names of the span events Troupe adds. */
export const SpanEvent = {
  retry: 'gen_ai.retry',
  permissionRequest: 'troupe.permission.request',
  question: 'troupe.question',
  answered: 'troupe.wait.end',
  compaction: 'troupe.compaction',
} as const;

/** Metric names: the GenAI client metrics, the tool duration of the GenAI tool conventions, and the run's cost. */
export const Metric = {
  tokenUsage: 'gen_ai.client.token.usage',
  operationDuration: 'gen_ai.client.operation.duration',
  toolDuration: 'gen_ai.execute_tool.duration',
  runCost: 'troupe.run.cost',
} as const;
