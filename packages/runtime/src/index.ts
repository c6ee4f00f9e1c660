export {
  GraphErrorCode,
  GuardrailErrorCode,
  PipelineErrorCode,
  RunControlErrorCode,
  RunErrorCode,
  RunStoreErrorCode,
  TextFileErrorCode,
  TransportErrorCode,
} from './runtime-error-codes.js';
export { agentConfigOf, agentOptionsFromConfig, createAgentFromConfig } from './agent-from-config.js';
export { GraphFileError, formatGraphProblem, formatGraphProblems } from './config/graph-file-error.js';
export { COMPACTION_STRATEGIES, SUPPORTED_GRAPH_VERSIONS } from './config/graph-config.js';
export { interpolateEnv } from './config/env-interpolation.js';
export { graphToMermaid } from './config/graph-mermaid.js';
export { loadGraphFile, parseGraph } from './config/load-graph.js';
export { decodeText, describeReadError, formatBytes, GRAPH_FILE_MAX_BYTES, readCheckedTextFile, TextFileError } from './config/read-text-file.js';
export { OVERRIDE_MODEL, withModelOverride } from './config/model-override.js';
export { createLogger, isLogLevel, LOG_LEVELS, REDACTED_KEYS } from './logger.js';
export { UnknownAgentError } from './config/unknown-agent-error.js';
export { builtinModels, ProviderConfigError } from '@troupe/providers';
export { defaultToolRegistry } from './default-tools.js';
export { defaultGuardrailRegistry, GuardrailRegistry } from './guardrails/guardrail-registry.js';
export { connectMcpServers, createGraphMcpHub, mcpServersUsedBy } from './mcp/graph-mcp.js';
export { McpAdapterError, McpErrorCode } from '@troupe/mcp';

export { createFileRunStore, DEFAULT_RUNS_DIR, runDirOf } from './store/file-run-store.js';
export { isGroupAlive, isProcessAlive, processIdentity } from './local/process-identity.js';
export { connectRunControl } from './local/run-control-client.js';
export { serveRunControl } from './local/run-control-server.js';
export { createFileToolProcessLedger } from './local/tool-process-ledger.js';
export { createMemoryRunStore } from './store/memory-run-store.js';
export { hasEnded, isRunStatus, RUN_STATUSES } from './store/run-store.js';
export { createDelegationTool, delegationToolName, outcomeOf } from './system/delegation-tool.js';
export { DEFAULT_MAX_DEPTH, graphActorFactory } from './system/graph-actor-factory.js';
export { createInProcessTransport } from './system/in-process-transport.js';
export { RunHandle } from './system/run-handle.js';
export { createRuntime, Runtime } from './system/runtime.js';
export { runPipeline } from './pipeline/pipeline-runner.js';

// The runtime's ports for transports: what a transport outside this package (`@troupe/nats`)
// builds on. `Transport` is the port itself; `ActorHost` hosts a transport's actors in a process;
// the rest turns a stored snapshot or a failure into an actor's result and a run's status, and
// sleeps supervision back-offs on the actors' clock.
export { ActorHost } from './system/actor-host.js';
export { clockSleep } from './system/clock-sleep.js';
export { endedResult, failedResult } from './system/ended-result.js';
export { finalStatusOf } from './system/run-handle.js';

export type { RuntimeErrorCode } from './runtime-error-codes.js';
export type { AgentFromConfigOptions } from './agent-from-config.js';
export type { GuardrailFactory } from './guardrails/guardrail-registry.js';
export type {
  AgentConfig,
  AgentStepConfig,
  CompactionConfig,
  CompactionStrategyName,
  GraphConfig,
  GraphMcpServer,
  GraphVersion,
  GuardrailConfig,
  MapStepConfig,
  ModelConfig,
  ModelOptions,
  ParallelStepConfig,
  PipelineConfig,
  PipelineStepConfig,
  RetryConfig,
  StepBase,
  StepOutputConfig,
} from './config/graph-config.js';
export type { Env, EnvProblem, InterpolationResult } from './config/env-interpolation.js';
export type { GraphProblem } from './config/graph-file-error.js';
export type { LoadGraphOptions } from './config/load-graph.js';
export type { ToolCatalog } from './config/tool-settings-schema.js';
export type { McpClientOptions, McpConnectReport, McpHub, McpServerConfig, McpToolInfo } from '@troupe/mcp';
export type { ReadTextFile } from './config/read-text-file.js';
export type { Logger } from 'pino';
export type { ModelInfo } from '@troupe/providers';
export type { LoggerOptions, LogLevel } from './logger.js';

export type { ChildOutcome, ChildRecord, RunRecord, RunStatus, RunStore } from './store/run-store.js';
export type { ProcessIdentity } from './local/process-identity.js';
export type { RunControlConnection } from './local/run-control-client.js';
export type { RunControlActorRequest, RunControlAnswer, RunControlEnd, RunControlRequest } from './local/run-control-protocol.js';
export type { ControlledRun, RunControlServer } from './local/run-control-server.js';
export type { ToolProcessLedger } from './local/tool-process-ledger.js';
export type { DelegationContext, DelegationTarget, SupervisionPolicy } from './system/delegation-tool.js';
export type { ActorBuildOptions, GraphActorFactoryOptions } from './system/graph-actor-factory.js';
export type { InProcessTransportOptions } from './system/in-process-transport.js';
export type { HibernationPolicy } from './system/hibernation.js';
export type { PendingAt, RunProgress, RunResult } from './system/run-handle.js';
export type { ActorTrace, Instrumentation, RunTrace, StepTrace, TracedRun, TracedRunEnd, TracedStep } from './system/instrumentation.js';
export type { TraceCarrier } from './system/trace-carrier.js';
export type { RunStartOptions, RuntimeOptions, TransportParts } from './system/runtime.js';
export type { PipelineContext } from './pipeline/pipeline-context.js';
export type { PipelineResult, StepOutcome } from './pipeline/pipeline-runner.js';
export type { TemplateScope } from './pipeline/template.js';

// The ports for transports (see above).
export type { ActorFactory, ActorHostOptions } from './system/actor-host.js';
export type { ControlCommand, HostedActor, SpawnRequest, Transport } from './system/transport.js';
export type { OutcomeWaiter } from './system/outcome.js';
