/**
 * A lead that delegates to a planner, which asks the user a question, then needs an approval for
 * its `write` tool: the shared graph of the tests of actors waiting deep in a run's tree.
 */
import { createToolRegistry, type ToolFactory } from '@troupe/tools';
import { askTool, delegate, testGraph } from '../../src/testing.js';

const writeFactory: ToolFactory = {
  name: 'write',
  description: 'Writes.',
  create: () => ({ name: 'write', description: 'Writes a note.', parameters: { type: 'object', properties: {} }, execute: () => ({ content: 'written' }) }),
};

/** The tools the planner graph's agents use: `ask` and `write`. */
export const plannerTools = createToolRegistry({ factories: [askTool, writeFactory] });

/** The lead and its planner (`lead/planner#1`): a question, then an approval, then the lead's answer `Plan: going to written`. */
export const plannerGraph = testGraph({
  lead: { delegates: ['planner'], script: [{ toolCalls: [delegate('planner', 'plan the trip')] }, { text: 'Plan: {{lastToolResult}}' }] },
  planner: {
    tools: ['ask', 'write'],
    permissions: { mode: 'ask', tools: { ask: 'allow' } },
    script: [
      { toolCalls: [{ name: 'ask', arguments: { question: 'Where to?' } }] },
      { toolCalls: [{ name: 'write' }] },
      { text: 'going to {{lastToolResult}}' },
    ],
  },
});
