/**
 * The transport contract, written once and run against every transport (the in-process one in
 * this package's tests, the NATS one in `@troupe/nats`'s): spawn, events, results, control
 * (abort, reply, approve), suspend and resume from a snapshot, and the typed error for an unknown
 * actor. Not a test file by itself: each transport's test calls {@link transportContract}
 * (published under `@troupe/runtime/testing`; it registers vitest suites).
 */
import { parseAgentPath, parseRunId, type AgentEvent, type AgentSnapshot, type RunId } from '@troupe/core';
import { createToolRegistry, type ToolFactory } from '@troupe/tools';
import { firstValueFrom, filter } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRunStore, type GraphConfig, type RunStore, type Transport } from '../index.js';
import { testGraph } from './graph-builder.js';

/** What a transport under test is built from. */
export interface TransportSetup {
  transport: Transport;
  close(): Promise<void>;
}

/** Builds the transport under test for `graph`, recording into `store`. */
export type MakeTransport = (graph: GraphConfig, store: RunStore, tools: ReturnType<typeof createToolRegistry>) => Promise<TransportSetup>;

const ask: ToolFactory = {
  name: 'ask',
  description: 'Asks.',
  create: () => ({
    name: 'ask',
    description: 'Asks the user.',
    parameters: { type: 'object', properties: {} },
    readOnly: true,
    execute: () => ({ content: 'asked', control: { type: 'suspend', question: 'Yes or no?' } }),
  }),
};
const tools = createToolRegistry({ factories: [ask] });

const graph = testGraph({
  talker: { script: [{ text: 'hello there' }] },
  asker: { tools: ['ask'], script: [{ toolCalls: [{ name: 'ask' }] }, { text: 'you said {{lastToolResult}}' }] },
  sleeper: { script: [{ text: 'late', delayMs: 60_000 }] },
});

let counter = 0;
const newRun = (): RunId => parseRunId(`run_contract_${Date.now().toString(36)}_${++counter}`);

function endOf(transport: Transport, runId: RunId, path: string): Promise<AgentEvent> {
  return firstValueFrom(transport.events(runId).pipe(filter((e) => e.type === 'agent_end' && e.agentPath === path)));
}

function waitingOf(transport: Transport, runId: RunId, path: string): Promise<AgentEvent> {
  return firstValueFrom(transport.events(runId).pipe(filter((e) => e.type === 'question' && e.agentPath === path)));
}

/**
 * Registers the contract tests for one transport. `makeStore` gives the run store the transport
 * records into (a fresh memory store per test by default); a store must outlive the transports
 * made over it (the restore test makes a second one).
 */
export function transportContract(name: string, make: MakeTransport, makeStore: () => Promise<RunStore> = async () => createMemoryRunStore()): void {
  describe(`transport contract: ${name}`, () => {
    let setup: TransportSetup | undefined;
    let store: RunStore;
    const start = async (): Promise<Transport> => {
      store = await makeStore();
      setup = await make(graph, store, tools);
      return setup.transport;
    };
    afterEach(async () => {
      await setup?.close();
      setup = undefined;
    });

    it('spawns an actor whose events arrive tagged and in order, in its session, and reports its result', async () => {
      const transport = await start();
      const runId = newRun();
      await store.createRun({ id: runId, entry: 'talker', input: 'hi', sessionId: 'ses_contract', status: 'running', startedAt: 0 });
      const events: AgentEvent[] = [];
      transport.events(runId).subscribe((e) => events.push(e));
      const ended = endOf(transport, runId, 'talker');
      await transport.spawn({ runId, path: parseAgentPath('talker'), agent: 'talker', input: 'hi', depth: 0, sessionId: 'ses_contract' });
      await ended;
      expect(events[0]).toMatchObject({ type: 'agent_start', sessionId: 'ses_contract' });
      expect(events.at(-1)?.type).toBe('agent_end');
      expect(events.every((e) => e.runId === runId && e.agentPath === 'talker')).toBe(true);
      expect(events.every((e, i) => i === 0 || e.seq > (events[i - 1]?.seq ?? Number.NEGATIVE_INFINITY))).toBe(true);
      const result = await transport.result(runId, parseAgentPath('talker'));
      expect(result).toMatchObject({ stopReason: 'stop', text: 'hello there' });
    });

    it('delivers abort to a running actor', async () => {
      const transport = await start();
      const runId = newRun();
      await store.createRun({ id: runId, entry: 'sleeper', input: 'hi', status: 'running', startedAt: 0 });
      const started = firstValueFrom(transport.events(runId).pipe(filter((e) => e.type === 'turn_start')));
      await transport.spawn({ runId, path: parseAgentPath('sleeper'), agent: 'sleeper', input: 'hi', depth: 0 });
      await started;
      await transport.control(runId, parseAgentPath('sleeper'), { type: 'abort' });
      expect(await transport.result(runId, parseAgentPath('sleeper'))).toMatchObject({ stopReason: 'aborted' });
    });

    it('suspends on a question and resumes on a reply', async () => {
      const transport = await start();
      const runId = newRun();
      await store.createRun({ id: runId, entry: 'asker', input: 'hi', status: 'running', startedAt: 0 });
      const asked = waitingOf(transport, runId, 'asker');
      await transport.spawn({ runId, path: parseAgentPath('asker'), agent: 'asker', input: 'hi', depth: 0 });
      expect(await asked).toMatchObject({ type: 'question', question: 'Yes or no?' });
      await transport.control(runId, parseAgentPath('asker'), { type: 'reply', answer: 'yes' });
      expect(await transport.result(runId, parseAgentPath('asker'))).toMatchObject({ stopReason: 'stop', text: 'you said yes' });
    });

    it('restores an actor from its snapshot and lets it go on', async () => {
      const transport = await start();
      const runId = newRun();
      await store.createRun({ id: runId, entry: 'asker', input: 'hi', status: 'running', startedAt: 0 });
      const asked = waitingOf(transport, runId, 'asker');
      await transport.spawn({ runId, path: parseAgentPath('asker'), agent: 'asker', input: 'hi', depth: 0 });
      await asked;
      await store.flush(runId);
      // The checkpoint taken as it began waiting may land after the event (a worker elsewhere writes it).
      await expect.poll(async () => (await store.loadSnapshots(runId))[0]?.state).toBe('waiting_user');
      const [snapshot] = await store.loadSnapshots(runId);
      await setup?.close();

      const other = await make(graph, store, tools);
      setup = other;
      const restoredAt = parseAgentPath('asker');
      await other.transport.spawn({ runId, path: restoredAt, agent: 'asker', snapshot: snapshot as AgentSnapshot, depth: 0 });
      await other.transport.control(runId, restoredAt, { type: 'reply', answer: 'no' });
      expect(await other.transport.result(runId, restoredAt)).toMatchObject({ stopReason: 'stop', text: 'you said no' });
    });

    it('rejects control of an unknown actor with a typed error', async () => {
      const transport = await start();
      await expect(transport.control(newRun(), parseAgentPath('nobody'), { type: 'abort' })).rejects.toMatchObject({ code: 'unknown_actor' });
      await expect(transport.result(newRun(), parseAgentPath('nobody'))).rejects.toMatchObject({ code: 'unknown_actor' });
    });
  });
}
