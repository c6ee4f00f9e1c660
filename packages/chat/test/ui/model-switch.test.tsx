/**
 * `/model` in the chat: without a name it shows the model; with a model of the graph (or
 * `provider:model`) the status bar and the gauge take the new model and the next reply comes from
 * it, the conversation going on; a model the chat cannot use (unknown provider, missing API key)
 * is said in the chat and changes nothing.
 */
import { Agent } from '@troupe/core';
import { agentOptionsFromConfig, parseGraph } from '@troupe/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { agentChatSession, graphModelSpec, graphModelSwitch } from '../../src/index.js';
import { KEY, renderChat } from '../support/render-chat.js';

const GRAPH = `version: 1
models:
  main:
    model: scripted:main
    contextWindow: 1000
    script:
      - text: Main answer.
  fast:
    model: scripted:fast
    contextWindow: 100000
    script:
      - text: Fast answer.
agents:
  assistant:
    model: main
    tools: []
entry: assistant
`;

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('/model', () => {
  it('switches the model for the next turn, and says why it cannot for an unknown one', async () => {
    const graph = await parseGraph(GRAPH, { file: '/tmp/model-switch.yaml', env: {} });
    const agent = new Agent(agentOptionsFromConfig(graph, 'assistant', { env: {} }));
    const session = agentChatSession(agent, {
      tools: [],
      model: graphModelSpec(graph, 'assistant'),
      contextWindow: 1000,
      models: (name) => graphModelSwitch(graph, 'assistant', name, { env: {} }),
    });
    const chat = renderChat(session);
    cleanup = () => {
      chat.unmount();
      agent.dispose();
    };
    await chat.type(...'hello', KEY.enter);
    const first = await chat.shows('Main answer.');
    expect(first).toMatch(/scripted:main · EXECUTE · idle · ctx \S+ \d+%/);

    await chat.type(...'/model', KEY.enter);
    await chat.shows('model: scripted:main (/model provider:model');

    await chat.type(...'/model nope:x', KEY.enter);
    const unknown = await chat.shows('/model nope:x: unknown provider "nope"');
    expect(unknown).toContain('still on scripted:main');
    await chat.type(...'/model openai:gpt-4.1-mini', KEY.enter);
    const keyless = await chat.shows('/model openai:gpt-4.1-mini:');
    expect(keyless).toMatch(/OPENAI_API_KEY/);
    expect(chat.frame().split('\n').at(-1)).toContain('scripted:main · EXECUTE');
    expect(agent.modelSettings.model).toBe('main');

    await chat.type(...'/model fast', KEY.enter);
    const switched = await chat.shows('model: scripted:fast from the next turn');
    expect(switched.split('\n').at(-1)).toContain('scripted:fast · EXECUTE');
    expect(agent.modelSettings.model).toBe('fast');
    await chat.type(...'again', KEY.enter);
    const reply = await chat.shows('Fast answer.');
    // One conversation: the first reply is still there, and the gauge now has the larger window.
    expect(reply).toContain('Main answer.');
    expect(reply.split('\n').at(-1)).toMatch(/ctx \S+ 0%/);
  });
});
