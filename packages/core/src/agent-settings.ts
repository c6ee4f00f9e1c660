/**
 * What an {@link AgentOptions} means for the parts of the agent that are plain data: the
 * statechart's settings (stored in snapshots) and the fixed part of every model request.
 */
import type { AgentOptions } from './agent-options.js';
import { resolveLimits } from './limits.js';
import type { MachineSettings } from './machine-types.js';
import type { ProviderRequest } from './provider.js';

/** The statechart's settings: limits resolved (the default turn cap applied), queue modes, completion, step delay. */
export function machineSettings(options: AgentOptions, compacts: boolean): MachineSettings {
  const settings: MachineSettings = {
    limits: resolveLimits(options.limits),
    steeringMode: options.steeringMode ?? 'one-at-a-time',
    followUpMode: options.followUpMode ?? 'one-at-a-time',
    completion: options.completion ?? 'reply',
    compacts,
  };
  if (options.stepDelayMs !== undefined && options.stepDelayMs > 0) settings.stepDelayMs = options.stepDelayMs;
  return settings;
}

/** The request of every model call minus its messages and tools. */
export function providerRequest(options: AgentOptions): Omit<ProviderRequest, 'messages' | 'tools'> {
  const request: Omit<ProviderRequest, 'messages' | 'tools'> = { model: options.model };
  if (options.systemPrompt !== undefined) request.systemPrompt = options.systemPrompt;
  if (options.thinking !== undefined) request.thinking = options.thinking;
  if (options.maxTokens !== undefined) request.maxTokens = options.maxTokens;
  if (options.temperature !== undefined) request.temperature = options.temperature;
  return request;
}
