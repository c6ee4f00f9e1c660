/**
 * Proves the control tools drive a real agent run (core Agent with the scripted provider):
 * ask_user parks the run in waiting_user with its question and the user's reply becomes the
 * call's result; task_complete ends the run with stop reason `complete` and `{ summary }` as the
 * value without another model call; send_update emits a tool_update progress event and the run
 * goes on. All three are read-only and validate their single required argument.
 */
import { Agent, type AgentEvent } from '@troupe/core';
import { createScriptedProvider } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { createAskUserTool } from '../../src/control/ask-user-tool.js';
import { createSendUpdateTool } from '../../src/control/send-update-tool.js';
import { createTaskCompleteTool } from '../../src/control/task-complete-tool.js';

function agentWith(script: Parameters<typeof createScriptedProvider>[0]): {
  agent: Agent;
  events: AgentEvent[];
  provider: ReturnType<typeof createScriptedProvider>;
} {
  const provider = createScriptedProvider(script);
  const agent = new Agent({ provider, model: 'test', tools: [createAskUserTool(), createTaskCompleteTool(), createSendUpdateTool()] });
  const events: AgentEvent[] = [];
  agent.events$.subscribe((event) => events.push(event));
  return { agent, events, provider };
}

describe('control tools', () => {
  it('ask_user suspends the run until the user replies', async () => {
    const { agent, events } = agentWith([
      { toolCalls: [{ name: 'ask_user', arguments: { question: 'Which branch?' } }] },
      { text: 'Using {{lastToolResult}}.' },
    ]);
    try {
      const done = agent.prompt('deploy');
      await new Promise<void>((resolve) => {
        const sub = agent.events$.subscribe((event) => {
          if (event.type === 'question') {
            sub.unsubscribe();
            resolve();
          }
        });
      });
      expect(agent.state).toBe('waiting_user');
      expect(events.find((e) => e.type === 'question')).toMatchObject({ toolName: 'ask_user', question: 'Which branch?' });
      agent.reply('main');
      const result = await done;
      expect(result.stopReason).toBe('stop');
      expect(result.text).toBe('Using main.');
    } finally {
      agent.dispose();
    }
  });

  it('task_complete ends the run with the summary as its value', async () => {
    const { agent, provider } = agentWith([{ toolCalls: [{ name: 'task_complete', arguments: { summary: 'Fixed the bug.' } }] }, { text: 'never asked' }]);
    try {
      const result = await agent.prompt('fix it');
      expect(result.stopReason).toBe('complete');
      expect(result.value).toEqual({ summary: 'Fixed the bug.' });
      expect(provider.requests).toHaveLength(1);
    } finally {
      agent.dispose();
    }
  });

  it('send_update emits progress and the run goes on', async () => {
    const { agent, events } = agentWith([{ toolCalls: [{ name: 'send_update', arguments: { message: 'Half way there.' } }] }, { text: 'Done.' }]);
    try {
      const result = await agent.prompt('work');
      expect(result.stopReason).toBe('stop');
      expect(result.text).toBe('Done.');
      expect(events.find((e) => e.type === 'tool_update')).toMatchObject({ toolName: 'send_update', progress: 'Half way there.' });
      const end = events.find((e) => e.type === 'tool_end');
      expect(end?.type === 'tool_end' && end.result.content).toEqual([{ type: 'text', text: 'Update sent.' }]);
    } finally {
      agent.dispose();
    }
  });

  it('are read-only and require their argument', async () => {
    for (const tool of [createAskUserTool(), createTaskCompleteTool(), createSendUpdateTool()]) {
      expect(tool.readOnly).toBe(true);
      expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect((tool.parameters['required'] as string[]).length).toBe(1);
    }
    const { agent } = agentWith([{ toolCalls: [{ name: 'task_complete', arguments: {} }] }, { text: 'ok' }]);
    try {
      const result = await agent.prompt('x');
      expect(result.stopReason).toBe('stop');
      const failed = result.messages.find((m) => m.role === 'toolResult');
      expect(failed?.role === 'toolResult' && failed.isError).toBe(true);
    } finally {
      agent.dispose();
    }
  });
});
