/**
 * What an {@link AgentOptions} means for the parts of the agent that are plain data: the
 * statechart's settings (stored in snapshots) and the fixed part of every model request, which
 * `Agent.configure` may change between runs.
 */
import type { AgentOptions } from './agent-options.js';
import { resolveLimits } from './limits.js';
import type { MachineSettings } from './machine-types.js';
import type { Provider, ProviderRequest, ThinkingLevel } from './provider.js';
import { DEFAULT_OUTPUT_RETRIES, outputInstruction } from './structured-output.js';
import type { Tool, ToolSource } from './tool.js';

/** How the agent's model is called: what `Agent.modelSettings` reports and `Agent.configure` changes. */
export interface ModelSettings {
  provider: Provider;
  /** The model name as the provider knows it. */
  model: string;
  systemPrompt?: string;
  thinking?: ThinkingLevel;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
}

const MODEL_SETTING_KEYS = [
  'provider',
  'model',
  'systemPrompt',
  'thinking',
  'maxTokens',
  'temperature',
  'topP',
] as const satisfies readonly (keyof ModelSettings)[];

/** What `Agent.configure` may change between runs: the model settings and the tools. */
export interface AgentChanges extends Partial<ModelSettings> {
  tools?: readonly Tool[] | ToolSource;
}

/**
 * The statechart's settings: limits resolved (the default turn cap applied), queue modes,
 * completion, step delay, whether it compacts, guardrails and output retries.
 */
export function machineSettings(options: AgentOptions, compacts: boolean): MachineSettings {
  const settings: MachineSettings = {
    limits: resolveLimits(options.limits),
    steeringMode: options.steeringMode ?? 'one-at-a-time',
    followUpMode: options.followUpMode ?? 'one-at-a-time',
    completion: options.completion ?? 'reply',
    compacts,
  };
  if (options.stepDelayMs !== undefined && options.stepDelayMs > 0) settings.stepDelayMs = options.stepDelayMs;
  if (options.guardrails !== undefined && options.guardrails.length > 0) settings.guardInput = true;
  if (options.outputSchema !== undefined) settings.outputRetries = options.outputRetries ?? DEFAULT_OUTPUT_RETRIES;
  return shared(settings);
}

/** Settings made so far, by their JSON: agents with equal settings share one object (the machine never changes what it stores). */
const made = new Map<string, MachineSettings>();
/** How many distinct settings are shared at most: past it, new ones are used as they are. */
const MAX_SHARED = 256;

/** The settings equal to `settings` made before, or `settings` (kept for the next agents). */
function shared(settings: MachineSettings): MachineSettings {
  const key = JSON.stringify(settings);
  const found = made.get(key);
  if (found !== undefined) return found;
  if (made.size < MAX_SHARED) made.set(key, settings);
  return settings;
}

/** The model settings an agent starts with. */
export function modelSettingsOf(options: AgentOptions): ModelSettings {
  const { provider, model, systemPrompt, thinking, maxTokens, temperature, topP } = options;
  return changedSettings({ provider, model }, { systemPrompt, thinking, maxTokens, temperature, topP });
}

/** `settings` with `changes` applied (fields left out, or given as undefined, stay as they were). */
export function changedSettings(settings: ModelSettings, changes: { [K in keyof AgentChanges]?: AgentChanges[K] | undefined }): ModelSettings {
  const next: ModelSettings = { ...settings };
  const fields = next as unknown as Record<string, unknown>;
  for (const key of MODEL_SETTING_KEYS) {
    const value = changes[key];
    if (value !== undefined) fields[key] = value;
  }
  return next;
}

/**
 * The request of every model call minus its messages and tools. With an output schema the system
 * prompt ends with the instruction to answer in JSON that matches it.
 */
export function providerRequest(settings: ModelSettings, outputSchema?: Record<string, unknown>): Omit<ProviderRequest, 'messages' | 'tools'> {
  const { provider: _provider, systemPrompt, ...rest } = settings;
  const request: Omit<ProviderRequest, 'messages' | 'tools'> = rest;
  if (outputSchema !== undefined) {
    const instruction = outputInstruction(outputSchema);
    request.systemPrompt = systemPrompt === undefined || systemPrompt === '' ? instruction : `${systemPrompt}\n\n${instruction}`;
  } else if (systemPrompt !== undefined) {
    request.systemPrompt = systemPrompt;
  }
  return request;
}
