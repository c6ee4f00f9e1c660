/**
 * A delegation tool hears its call's abort and aborts the child: through the context's `onAbort`
 * when it has one (an agent's always does), and through `signal` for a hand-made context without
 * it; a call aborted before it waits aborts its child at once.
 */
import { parseAgentPath, type AgentPath, type AgentResult, type RunId, type ToolContext } from '@troupe/core';
import { EMPTY } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createDelegationTool, createMemoryRunStore, type ControlCommand, type Transport } from '../../src/index.js';

/** A transport whose child ends only when it is aborted; records the controls it got. */
function abortOnlyTransport(): { transport: Transport; spawned: Promise<void>; controls: ControlCommand[] } {
  let ended: ((result: AgentResult) => void) | undefined;
  const result = new Promise<AgentResult>((resolve) => {
    ended = resolve;
  });
  let spawnedNow: () => void = () => undefined;
  const spawned = new Promise<void>((resolve) => {
    spawnedNow = resolve;
  });
  const controls: ControlCommand[] = [];
  const transport: Transport = {
    spawn: async () => spawnedNow(),
    control: async (runId, _path, command) => {
      controls.push(command);
      if (command.type === 'abort') ended?.({ runId, stopReason: 'aborted', text: '', messages: [], usage: emptyUsage(), turns: 0 } as unknown as AgentResult);
    },
    events: () => EMPTY,
    result: () => result,
    close: async () => undefined,
  };
  return { transport, spawned, controls };
}

function emptyUsage(): AgentResult['usage'] {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  } as AgentResult['usage'];
}

function toolContext(signal: AbortSignal, onAbort?: ToolContext['onAbort']): ToolContext {
  const ctx: ToolContext = {
    toolCallId: 'call_1',
    runId: 'run_1' as RunId,
    agentPath: parseAgentPath('lead'),
    sessionId: 'ses_1',
    signal,
    update: () => undefined,
    progress: () => undefined,
  };
  return onAbort === undefined ? ctx : { ...ctx, onAbort };
}

async function delegationTool(transport: Transport) {
  const parent: AgentPath = parseAgentPath('lead');
  const store = createMemoryRunStore();
  await store.createRun({ id: 'run_1' as RunId, entry: 'lead', input: 'go', status: 'running', startedAt: 0 });
  return createDelegationTool(
    { name: 'helper' },
    {
      transport,
      store,
      parent,
      depth: 0,
      maxDepth: 3,
      supervision: { retries: 0, backoffMs: 1 },
      restored: false,
      sleep: async () => undefined,
    },
  );
}

describe('delegation tool abort', () => {
  it("aborts the child through the context's onAbort, without reading its signal", async () => {
    const { transport, spawned, controls } = abortOnlyTransport();
    const listeners: (() => void)[] = [];
    let signalRead = false;
    const ctx = toolContext(new AbortController().signal, (listener) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    });
    const viaOnAbort = Object.defineProperty(ctx, 'signal', {
      get: () => {
        signalRead = true;
        return new AbortController().signal;
      },
    });
    const call = (await delegationTool(transport)).execute({ task: 'wait' }, viaOnAbort);
    await spawned;
    while (listeners.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const listener of [...listeners]) listener();
    expect(await call).toMatchObject({ isError: true, details: { path: 'lead/helper#1', stopReason: 'aborted' } });
    expect(controls).toEqual([{ type: 'abort' }]);
    // The listener was removed when the call ended.
    expect(listeners).toEqual([]);
    expect(signalRead).toBe(false);
  });

  it('aborts the child through the signal of a context without onAbort', async () => {
    const { transport, spawned, controls } = abortOnlyTransport();
    const controller = new AbortController();
    const call = (await delegationTool(transport)).execute({ task: 'wait' }, toolContext(controller.signal));
    await spawned;
    controller.abort();
    expect(await call).toMatchObject({ isError: true, details: { stopReason: 'aborted' } });
    expect(controls).toEqual([{ type: 'abort' }]);
  });

  it('aborts the child at once when the call was aborted before it waited', async () => {
    const { transport, controls } = abortOnlyTransport();
    const controller = new AbortController();
    controller.abort();
    expect(await (await delegationTool(transport)).execute({ task: 'wait' }, toolContext(controller.signal))).toMatchObject({
      details: { stopReason: 'aborted' },
    });
    expect(controls).toEqual([{ type: 'abort' }]);
  });
});
