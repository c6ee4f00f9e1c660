/** The agent the turn benchmarks run: the scripted model calling a no-op tool, each call allowed, no turn cap. */
import { Agent, type Tool } from '@troupe/core';
import { createScriptedProvider, type ScriptStep } from '@troupe/core/testing';

const noop: Tool = { name: 'noop', description: 'Does nothing.', parameters: { type: 'object', properties: {} }, execute: () => ({ content: 'ok' }) };

/** A script of `calls` turns each calling `noop`, then a text turn. */
export function noopScript(calls: number): ScriptStep[] {
  return [...Array.from({ length: calls }, () => ({ toolCalls: [{ name: 'noop' }] })), { text: 'done' }];
}

/** A fresh agent playing `script` (every call runs and the run is not capped: the defaults would ask for `noop` and stop at 50 turns). */
export function noopAgent(script: ScriptStep[]): Agent {
  return new Agent({
    provider: createScriptedProvider(script, { recordRequests: false }),
    model: 'bench',
    tools: [noop],
    permissions: { mode: 'allow' },
    limits: { maxTurns: Infinity },
  });
}
