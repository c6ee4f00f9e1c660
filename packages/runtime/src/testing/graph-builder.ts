/**
 * Builds graphs in code for tests of the runtime and of transports built on it (the YAML loader
 * has its own tests), each agent with its own scripted model. Published under
 * `@troupe/runtime/testing`.
 */
import type { ScriptStep } from '@troupe/providers';
import type { ToolFactory } from '@troupe/tools';
import type { AgentResult } from '@troupe/core';
import type { AgentConfig, GraphConfig, RunHandle, RunResult } from '../index.js';

/** An agent of a test graph: its script and the rest of its config. */
export interface TestAgent extends Partial<Omit<AgentConfig, 'name' | 'model'>> {
  script: ScriptStep[];
}

/** A graph whose every agent has its own scripted model. The first agent is the entry. */
export function testGraph(agents: Record<string, TestAgent>, entry = Object.keys(agents)[0] ?? ''): GraphConfig {
  const graph: GraphConfig = { version: 1, file: 'test.yaml', models: {}, agents: {}, entry };
  for (const [name, { script, ...rest }] of Object.entries(agents)) {
    graph.models[name] = { name, spec: { provider: 'scripted', model: name }, script };
    graph.agents[name] = { name, model: name, tools: [], ...rest };
  }
  return graph;
}

/** A delegation call in a script. */
export function delegate(agent: string, task: string): { name: string; arguments: { task: string } } {
  return { name: `delegate_to_${agent}`, arguments: { task } };
}

/** The run's result with the entry agent's result as `result` (runs that start at an agent). */
export async function finished(run: RunHandle): Promise<RunResult & { result: AgentResult }> {
  const outcome = await run.result;
  if (outcome.agent === undefined) throw new Error(`run ${run.id} has no agent result: ${JSON.stringify(outcome)}`);
  return { ...outcome, result: outcome.agent };
}

/** Resolves once at least `count` actors of the run wait for a user. */
export function untilWaiting(run: RunHandle, count = 1): Promise<void> {
  return new Promise((resolve) => {
    const sub = run.events$.subscribe(() => {
      if (run.waiting.length >= count) {
        queueMicrotask(() => sub.unsubscribe());
        resolve();
      }
    });
  });
}

/** A tool `ask` that suspends its agent with the `question` argument, as `ask_user` does. */
export const askTool: ToolFactory = {
  name: 'ask',
  description: 'Asks the user.',
  create: () => ({
    name: 'ask',
    description: 'Asks the user a question.',
    parameters: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
    readOnly: true,
    execute: (args) => ({ content: 'asked', control: { type: 'suspend', question: String(args['question']) } }),
  }),
};
