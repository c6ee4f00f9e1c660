export { createScriptedProvider } from './testing/scripted-provider.js';
export { flushPromises, SimulatedClock } from './testing/simulated-clock.js';

export type { ScriptedFailure, ScriptedProvider, ScriptedProviderOptions, ScriptedReply, ScriptedToolCall, ScriptStep } from './testing/scripted-provider.js';
