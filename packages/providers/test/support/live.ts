import { Agent, noRetry, type Tool } from '@troupe/core';
import { expect } from 'vitest';
import { createProvider } from '../../src/create-provider.js';
import { parseModelSpec } from '../../src/model-spec.js';

/** The environment variable that enables a live test, if set. */
export function liveKey(...names: string[]): string | undefined {
  for (const name of names) {
    const value = process.env[name];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** One real round trip: the model must call `add` and then answer with the sum. */
export async function liveToolRoundTrip(spec: string): Promise<void> {
  const { provider: name, model } = parseModelSpec(spec);
  const provider = createProvider({ provider: name, model });
  const add: Tool = {
    name: 'add',
    description: 'Adds two integers. Always use it for arithmetic.',
    parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
    readOnly: true,
    execute: (args) => ({ content: String(Number(args['a']) + Number(args['b'])) }),
  };
  const agent = new Agent({
    provider,
    model,
    tools: [add],
    systemPrompt: 'Use the add tool, then answer with just the number.',
    maxTokens: 2000,
    retry: noRetry,
    limits: { maxTurns: 4 },
  });
  try {
    const result = await agent.prompt('What is 1234 + 4321?');
    expect(result.stopReason).toBe('stop');
    expect(result.text).toContain('5555');
    expect(result.messages.some((m) => m.role === 'toolResult')).toBe(true);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
  } finally {
    agent.dispose();
  }
}
