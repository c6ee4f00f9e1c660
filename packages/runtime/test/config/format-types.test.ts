/**
 * Proves, at compile time (the package's typecheck), that the config types and the readers of the
 * graph file agree: each section's fields read exactly the keys of its type, with its value
 * types (regression: issue 15, types, readers and schema were written separately and drifted).
 * Where the loader renames or splits a key (`system` → `systemPrompt`, `map` → `over`, `tools` →
 * `tools`/`mcpTools`/`toolSettings`/`toolModules`), the check says so. The run-time assertions
 * only make vitest count the checks.
 */
import type { Limits } from '@troupe/core';
import type { AnthropicCacheOptions, ScriptedFailure, ScriptedReply, ScriptedToolCall } from '@troupe/providers';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AGENT_RUN_FIELDS, type RETRY_FIELDS } from '../../src/config/agent-run-schema.js';
import { AGENT_FIELDS, type LIMITS_FIELDS } from '../../src/config/agent-schema.js';
import type { COMPACTION_FIELDS } from '../../src/config/compaction-schema.js';
import type {
  AgentConfig,
  AgentStepConfig,
  CompactionConfig,
  GraphConfig,
  GraphMcpServer,
  MapStepConfig,
  ModelOptions,
  ParallelStepConfig,
  RetryConfig,
  StepOutputConfig,
} from '../../src/config/graph-config.js';
import { GRAPH_FIELDS } from '../../src/config/graph-schema.js';
import type { MCP_SERVER_FIELDS } from '../../src/config/mcp-server-schema.js';
import type { CACHE_FIELDS } from '../../src/config/model-options-schema.js';
import { MODEL_FIELDS } from '../../src/config/model-schema.js';
import type { FieldValues } from '../../src/config/object-reader.js';
import type { AGENT_STEP_FIELDS, MAP_STEP_FIELDS, OUTPUT_FIELDS, PARALLEL_STEP_FIELDS } from '../../src/config/pipeline-schema.js';
import type { FAILURE_DETAIL_FIELDS, FAILURE_FIELDS, REPLY_FIELDS, TOOL_CALL_FIELDS, USAGE_FIELDS } from '../../src/config/script-schema.js';

/** What the fields `S` read. */
type Read<S> = FieldValues<S>;
/** Every key of every member of a union. */
type KeysOf<T> = T extends unknown ? keyof T : never;

describe('config types and readers', () => {
  it('agree on agents and their sections', () => {
    // An agent entry reads `system` into `systemPrompt` and splits `tools`; the other keys are the type's.
    expectTypeOf<Omit<Read<typeof AGENT_FIELDS>, 'system' | 'tools'>>().toEqualTypeOf<
      Partial<Omit<AgentConfig, 'name' | 'systemPrompt' | 'tools' | 'mcpTools' | 'toolSettings' | 'toolModules'>>
    >();
    expectTypeOf<Read<typeof AGENT_FIELDS>['system']>().toEqualTypeOf<AgentConfig['systemPrompt']>();
    expectTypeOf<Read<typeof LIMITS_FIELDS>>().toEqualTypeOf<Limits>();
    expectTypeOf<Read<typeof RETRY_FIELDS>>().toEqualTypeOf<RetryConfig>();
    expectTypeOf<Read<typeof COMPACTION_FIELDS>>().toEqualTypeOf<CompactionConfig>();
    expect(Object.keys(AGENT_FIELDS)).toEqual(expect.arrayContaining(Object.keys(AGENT_RUN_FIELDS)));
  });

  it('agree on models, their options and their scripts', () => {
    expectTypeOf<Pick<Read<typeof MODEL_FIELDS>, keyof ModelOptions>>().toEqualTypeOf<ModelOptions>();
    expectTypeOf<Exclude<keyof typeof MODEL_FIELDS, keyof ModelOptions>>().toEqualTypeOf<'model' | 'script' | 'scriptFile' | 'contextWindow'>();
    expectTypeOf<Read<typeof CACHE_FIELDS>>().toEqualTypeOf<AnthropicCacheOptions>();
    expectTypeOf<Read<typeof REPLY_FIELDS>>().toEqualTypeOf<ScriptedReply>();
    expectTypeOf<Read<typeof USAGE_FIELDS>>().toEqualTypeOf<NonNullable<ScriptedReply['usage']>>();
    expectTypeOf<Read<typeof TOOL_CALL_FIELDS>>().toEqualTypeOf<Partial<ScriptedToolCall>>();
    // Every provider error kind is a kind a script may name, and no other.
    expectTypeOf<Read<typeof FAILURE_DETAIL_FIELDS>>().toEqualTypeOf<Partial<ScriptedFailure['error']>>();
    expectTypeOf<Omit<Read<typeof FAILURE_FIELDS>, 'error'>>().toEqualTypeOf<Omit<Partial<ScriptedFailure>, 'error'>>();
    expect(Object.keys(MODEL_FIELDS)).toContain('contextWindow');
  });

  it('agree on MCP servers, pipelines and the top level', () => {
    expectTypeOf<keyof typeof MCP_SERVER_FIELDS>().toEqualTypeOf<KeysOf<GraphMcpServer>>();
    expectTypeOf<Read<typeof OUTPUT_FIELDS>>().toEqualTypeOf<Partial<StepOutputConfig>>();
    expectTypeOf<Read<typeof AGENT_STEP_FIELDS>>().toEqualTypeOf<Partial<Omit<AgentStepConfig, 'kind'>>>();
    // A map step reads `map` into `over`; a parallel step reads `parallel` into `steps`.
    expectTypeOf<Omit<Read<typeof MAP_STEP_FIELDS>, 'map'>>().toEqualTypeOf<Partial<Omit<MapStepConfig, 'kind' | 'over'>>>();
    expectTypeOf<Read<typeof MAP_STEP_FIELDS>['map']>().toEqualTypeOf<MapStepConfig['over'] | undefined>();
    expectTypeOf<Omit<Read<typeof PARALLEL_STEP_FIELDS>, 'parallel'>>().toEqualTypeOf<Partial<Omit<ParallelStepConfig, 'kind' | 'steps'>>>();
    expectTypeOf<Read<typeof PARALLEL_STEP_FIELDS>['parallel']>().toEqualTypeOf<ParallelStepConfig['steps'] | undefined>();
    // The loader adds `file` and the modules' code; `models` is read as drafts, then resolved.
    expectTypeOf<keyof typeof GRAPH_FIELDS>().toEqualTypeOf<Exclude<keyof GraphConfig, 'file' | 'moduleTools' | 'moduleGuardrails'>>();
    expectTypeOf<Pick<Read<typeof GRAPH_FIELDS>, 'version' | 'agents' | 'mcpServers' | 'pipelines' | 'entry'>>().toEqualTypeOf<
      Partial<Pick<GraphConfig, 'version' | 'agents' | 'mcpServers' | 'pipelines' | 'entry'>>
    >();
    expect(Object.keys(GRAPH_FIELDS)).toEqual(['version', 'models', 'agents', 'entry', 'mcpServers', 'pipelines']);
  });
});
