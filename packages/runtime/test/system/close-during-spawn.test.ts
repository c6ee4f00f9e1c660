/**
 * A runtime closed while a run's entry is being spawned: the entry is stopped with every other
 * actor, and the run is left as close leaves runs — here waiting for its user, to be resumed
 * later — not recorded as failed for want of an actor to ask for its result.
 */
import { createToolRegistry } from '@troupe/tools';
import { describe, expect, it } from 'vitest';
import { createInProcessTransport, createMemoryRunStore, createRuntime, type Runtime, type SpawnRequest, type Transport } from '../../src/index.js';
import { askTool, testGraph, untilWaiting } from '../../src/testing.js';

describe('a runtime closed while a run starts', () => {
  it('leaves the run waiting, and it resumes and finishes', async () => {
    const graph = testGraph({ lead: { tools: ['ask'], script: [{ toolCalls: [{ name: 'ask', arguments: { question: 'Where?' } }] }, { text: 'ok' }] } });
    const tools = createToolRegistry({ factories: [askTool] });
    const store = createMemoryRunStore();
    let closing: Promise<void> | undefined;
    let runtime: Runtime | undefined;
    // The entry reaches waiting_user, then the runtime closes, all before the spawn resolves.
    const closingTransport = (parts: Parameters<typeof createInProcessTransport>[0]): Transport => {
      const inner = createInProcessTransport(parts);
      const spawn = async (request: SpawnRequest): Promise<void> => {
        await inner.spawn(request);
        await new Promise<void>((resolve) => {
          const stop = inner.events(request.runId).subscribe((event) => {
            if (event.type === 'state' && event.state === 'waiting_user') {
              stop.unsubscribe();
              resolve();
            }
          });
        });
        closing = runtime?.close();
      };
      return new Proxy(inner, {
        get: (target, key: keyof Transport) => {
          if (key === 'spawn') return spawn;
          const value = target[key];
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    };
    runtime = createRuntime({ graph, tools, store, transport: closingTransport });
    const run = runtime.run('go');
    let settled = false;
    run.result.then(
      () => (settled = true),
      () => (settled = true),
    );
    await untilWaiting(run);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(closing).toBeDefined();
    await closing;
    expect(settled).toBe(false);
    expect(await store.getRun(run.id)).toMatchObject({ status: 'waiting' });

    const after = createRuntime({ graph, tools, store });
    const resumed = await after.resume(run.id);
    await resumed.reply('here');
    expect(await resumed.result).toMatchObject({ status: 'done', text: 'ok' });
    await after.close();
  });
});
