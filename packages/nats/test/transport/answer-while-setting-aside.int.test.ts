/**
 * Regression: an answer that reaches a worker's actor while its waiting record is being written
 * is not lost. The actor begins to wait, the host stores its checkpoint and record before setting
 * it aside, and its control subject is listened on until then; a reply arriving in that window
 * used to take the actor on (thinking again), after which the pending set-aside released it
 * anyway: the model's answer went to a stopped actor, the task was acked as waiting and the run
 * hung (the transport contract's "suspends on a question and resumes on a reply" failed so under
 * load). Here the waiting checkpoint is held back by the run store until the reply is in, on a
 * real nats-server.
 */
import { parseAgentPath, parseRunId, type AgentCheckpoint, type AgentResult, type RunId } from '@troupe/core';
import { createMemoryRunStore, graphActorFactory, type RunStore } from '@troupe/runtime';
import { askTool, testGraph } from '@troupe/runtime/testing';
import { createToolRegistry } from '@troupe/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, createNatsTransport, graphHash, openNatsResources, type NatsResources } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';

const tools = createToolRegistry({ factories: [askTool] });
const graph = testGraph({
  asker: { tools: ['ask'], script: [{ toolCalls: [{ name: 'ask', arguments: { question: 'Yes or no?' } }] }, { text: 'you said {{lastToolResult}}' }] },
});

/** A run store whose first checkpoint of a waiting actor is stored only once `open()` is called. */
function heldAtFirstWait(inner: RunStore): { store: RunStore; held: Promise<void>; open(): void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let reached!: () => void;
  const held = new Promise<void>((resolve) => {
    reached = resolve;
  });
  let holding = true;
  const saveCheckpoint = async (runId: RunId, checkpoint: Omit<AgentCheckpoint, 'mark'>): Promise<void> => {
    if (holding && checkpoint.head.state === 'waiting_user') {
      holding = false;
      reached();
      await gate;
    }
    await inner.saveCheckpoint(runId, checkpoint);
  };
  const store = new Proxy(inner, {
    get: (target, key) => {
      if (key === 'saveCheckpoint') return saveCheckpoint;
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, held, open };
}

let server: NatsServerProcess;
let resources: NatsResources;

beforeAll(async () => {
  server = await startNatsServer();
  resources = await openNatsResources(await connectNats({ servers: server.url }), { namespace: 'setaside' });
});

afterAll(async () => {
  await resources?.nc.close();
  await server?.stop();
});

describe('an answer while the waiting record is written', () => {
  it('takes the actor on: it is not set aside, it ends here with the answer', async () => {
    const { store, held, open } = heldAtFirstWait(createMemoryRunStore());
    const transport = createNatsTransport({
      resources,
      store,
      factory: graphActorFactory(graph, { store, tools, sleep: () => Promise.resolve() }),
      graphHash: graphHash(graph),
      placement: () => 'remote',
    });
    try {
      const runId = parseRunId(`run_setaside_${Date.now().toString(36)}`);
      const path = parseAgentPath('asker');
      await store.createRun({ id: runId, entry: 'asker', input: 'hi', status: 'running', startedAt: 0 });
      const claim = await transport.hosting.claim({ runId, path, agent: 'asker', depth: 0 }, 'absent');
      expect(claim).toBeDefined();
      const setAside: string[] = [];
      let ended!: (result: AgentResult) => void;
      const end = new Promise<AgentResult>((resolve) => {
        ended = resolve;
      });
      claim?.host(
        { runId, path, agent: 'asker', depth: 0, input: 'hi' },
        {
          onWaiting: (actor) => {
            setAside.push(actor.request.path);
            transport.hosting.release(actor);
          },
          onEnded: (actor, result) => {
            transport.hosting.release(actor);
            ended(result);
          },
        },
      );
      await held;
      // The actor waits; its record is not written yet. The reply goes over NATS to its control subject.
      await transport.control(runId, path, { type: 'reply', answer: 'yes' });
      open();
      expect(await end).toMatchObject({ stopReason: 'stop', text: 'you said yes' });
      expect(setAside).toEqual([]);
    } finally {
      await transport.close();
    }
  });
});
