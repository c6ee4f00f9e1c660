/**
 * Test doubles for providers. The scripted provider lives in `@troupe/core/testing` (so the core's
 * own tests can use it) and is exposed here as the providers package's public test double.
 */
export { createScriptedProvider } from '@troupe/core/testing';

export type { ScriptedFailure, ScriptedProvider, ScriptedProviderOptions, ScriptedReply, ScriptedToolCall, ScriptStep } from '@troupe/core/testing';
