/**
 * `Runtime.resume` of a distributed run whose coordinator died, on a real nats-server: a first
 * runtime hosts the run's local actors and "dies" (its connection drops, nothing is written on
 * the way out); a second one, on its own connection, takes up what was stranded. An actor that
 * never checkpointed starts again, an abort asked for while nobody hosted the run is honoured,
 * and a run whose process is alive is refused.
 */
import { parseAgentPath, snapshotState, TroupeError, type AgentSnapshot, type RunId } from '@troupe/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRuntime, type GraphConfig, type Runtime } from '@troupe/runtime';
import {
  connectNats,
  createNatsRunStore,
  createNatsTransport,
  graphHash,
  kvKey,
  loadSnapshot,
  openNatsResources,
  type NatsResources,
} from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';
import { delegate, finished, testGraph, type TestAgent } from '@troupe/runtime/testing';

// How long a wait for a record or a checkpoint may take: a loaded machine needs more than vi.waitFor's 1 s.
const UNTIL = { timeout: 20_000, interval: 50 };

/** The first coordinator's helper thinks far longer than any test: it dies thinking. */
const SLOW = 60_000;

const lead = {
  delegates: ['helper'],
  script: [{ toolCalls: [delegate('helper', 'help')] }, { text: 'Done. {{lastToolResult}}' }],
};
const slowTeam = testGraph({ lead, helper: { script: [{ text: 'too late', delayMs: SLOW }] } });
const quickTeam = testGraph({ lead, helper: { script: [{ text: 'helped' }] } });

let server: NatsServerProcess;
let namespaces = 0;
const opened: Array<{ resources: NatsResources; runtime: Runtime }> = [];

beforeAll(async () => {
  server = await startNatsServer();
});
afterEach(async () => {
  for (const { resources, runtime } of opened.splice(0)) {
    await resources.nc.close().catch(() => undefined);
    await runtime.close().catch(() => undefined);
  }
});
afterAll(async () => {
  await server?.stop();
});

/** A coordinator runtime on its own connection to `namespace`, named `hostId` in actor records. */
async function coordinator(graph: GraphConfig, namespace: string, hostId: string): Promise<{ resources: NatsResources; runtime: Runtime }> {
  const resources = await openNatsResources(await connectNats({ servers: server.url }), { namespace });
  const runtime = createRuntime({
    graph,
    store: createNatsRunStore(resources),
    transport: (parts) => createNatsTransport({ ...parts, resources, graphHash: graphHash(graph), placement: () => 'local', hostId }),
  });
  const made = { resources, runtime };
  opened.push(made);
  return made;
}

/** Makes the coordinator vanish as if its process were killed: its connection drops first, so nothing more reaches NATS. */
async function kill({ resources, runtime }: { resources: NatsResources; runtime: Runtime }): Promise<void> {
  await resources.nc.close();
  await runtime.close();
}

function stateOf(snapshot: AgentSnapshot | undefined): string | undefined {
  return snapshot === undefined ? undefined : snapshotState(snapshot);
}

async function record(resources: NatsResources, runId: RunId, path: string): Promise<unknown> {
  const entry = await resources.actors.get(kvKey(runId, path));
  return entry?.operation === 'PUT' ? entry.json() : undefined;
}

describe('resuming a distributed run whose coordinator died', () => {
  it('restores the parent and starts again the child that never checkpointed', async () => {
    const namespace = `stranded${++namespaces}`;
    const first = await coordinator(slowTeam, namespace, 'gone');
    const run = first.runtime.run('go');
    // The lead checkpointed its delegation; the helper is thinking, never checkpointed.
    await vi.waitFor(async () => {
      expect(await record(first.resources, run.id, 'lead/helper#1')).toMatchObject({ status: 'running', host: 'gone' });
      expect(stateOf(await loadSnapshot(first.resources, run.id, 'lead'))).toBe('tool_executing');
    }, UNTIL);
    await kill(first);

    const second = await coordinator(quickTeam, namespace, 'heir');
    const { status, result } = await finished(await second.runtime.resume(run.id));
    expect(status).toBe('done');
    expect(result.text).toBe('Done. helped');
    expect(await record(second.resources, run.id, 'lead/helper#1')).toMatchObject({
      status: 'ended',
      result: { stopReason: 'error', error: { code: 'host_lost', message: expect.stringMatching(/lost its host before its first checkpoint/) } },
    });
    expect(await record(second.resources, run.id, 'lead/helper#2')).toMatchObject({ status: 'ended', result: { text: 'helped' } });
    expect(await second.runtime.store.getRun(run.id)).toMatchObject({ status: 'done' });
  });

  it('gives a restored parent the result of a child that had ended, from its record, without running it again', async () => {
    const namespace = `stranded${++namespaces}`;
    const pair = (slow: TestAgent['script']): GraphConfig =>
      testGraph({
        lead: { delegates: ['quick', 'slow'], script: [{ toolCalls: [delegate('quick', 'q'), delegate('slow', 's')] }, { text: 'Done. {{lastToolResult}}' }] },
        quick: { script: [{ text: 'quick answer' }] },
        slow: { script: slow },
      });
    const first = await coordinator(pair([{ text: 'too late', delayMs: SLOW }]), namespace, 'gone');
    const run = first.runtime.run('go');
    // The quick child has ended (its outcome lives in its record only); the slow one thinks.
    await vi.waitFor(
      async () => expect(await record(first.resources, run.id, 'lead/quick#1')).toMatchObject({ status: 'ended', result: { text: 'quick answer' } }),
      UNTIL,
    );
    await vi.waitFor(async () => expect(stateOf(await loadSnapshot(first.resources, run.id, 'lead'))).toBe('tool_executing'), UNTIL);
    await kill(first);

    const second = await coordinator(pair([{ text: 'slow answer' }]), namespace, 'heir');
    expect((await second.runtime.store.children(run.id)).map((child) => [child.path, child.outcome])).toEqual([
      ['lead/quick#1', undefined],
      ['lead/slow#1', undefined],
    ]);
    const { status, result } = await finished(await second.runtime.resume(run.id));
    expect(status).toBe('done');
    expect(result.text).toBe('Done. slow answer');
    expect(result.messages.filter((m) => m.role === 'toolResult').map((m) => m.content)).toEqual([
      [{ type: 'text', text: 'quick answer' }],
      [{ type: 'text', text: 'slow answer' }],
    ]);
    const events = await second.runtime.store.readEvents(run.id);
    expect(
      events
        .filter((e) => e.type === 'agent_start')
        .map((e) => e.agentPath)
        .filter((path) => path.startsWith('lead/quick')),
    ).toEqual(['lead/quick#1']);
  });

  it("starts again from the run's input an entry that never checkpointed", async () => {
    const namespace = `stranded${++namespaces}`;
    const first = await coordinator(testGraph({ lead: { script: [{ text: 'too late', delayMs: SLOW }] } }), namespace, 'gone');
    const run = first.runtime.run('hello');
    await vi.waitFor(async () => expect(await record(first.resources, run.id, 'lead')).toMatchObject({ status: 'running', host: 'gone' }), UNTIL);
    await kill(first);

    const second = await coordinator(testGraph({ lead: { script: [{ text: 'hello again' }] } }), namespace, 'heir');
    const { status, result } = await finished(await second.runtime.resume(run.id));
    expect(status).toBe('done');
    expect(result.text).toBe('hello again');
    expect(result.messages[0]).toMatchObject({ role: 'user', content: 'hello' });
  });

  it('goes on with a pipeline: ended steps give their outputs, a stranded step is restored', async () => {
    const namespace = `stranded${++namespaces}`;
    const pipeline = (second: TestAgent['script']): GraphConfig => {
      const graph = testGraph({
        outliner: { script: [{ text: 'intro, body' }] },
        writer: {
          tools: ['bash'],
          permissions: { mode: 'allow' },
          script: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo marked' } }] }, ...second],
        },
      });
      graph.pipelines = {
        brief: {
          name: 'brief',
          steps: [
            { kind: 'agent', id: 'outline', agent: 'outliner', input: 'Outline {{input}}' },
            { kind: 'agent', id: 'draft', agent: 'writer', input: 'Write {{steps.outline.output}}' },
          ],
        },
      };
      graph.entry = 'brief';
      return graph;
    };
    const first = await coordinator(pipeline([{ text: 'too late', delayMs: SLOW }]), namespace, 'gone');
    const run = first.runtime.run('cats');
    // The writer ran its tool and checkpointed the turn: it is thinking about its draft.
    await vi.waitFor(
      async () => expect((await loadSnapshot(first.resources, run.id, 'brief/draft'))?.context.messages.some((m) => m.role === 'toolResult')).toBe(true),
      UNTIL,
    );
    await kill(first);

    const second = await coordinator(pipeline([{ text: 'A draft of {{lastToolResult}}' }]), namespace, 'heir');
    const resumed = await second.runtime.resume(run.id);
    expect(await resumed.result).toMatchObject({ status: 'done', output: 'A draft of marked', steps: { outline: { output: 'intro, body' } } });
    // Neither the outline step nor the writer's tool turn ran again.
    const events = await second.runtime.store.readEvents(run.id);
    expect(events.filter((e) => e.type === 'agent_start').map((e) => e.agentPath)).toEqual(['brief/outline', 'brief/draft']);
    expect(events.filter((e) => e.type === 'tool_start').map((e) => e.agentPath)).toEqual(['brief/draft']);
  });

  it('aborts on resume a run whose abort was asked for while nobody hosted it', async () => {
    const namespace = `stranded${++namespaces}`;
    const first = await coordinator(slowTeam, namespace, 'gone');
    const run = first.runtime.run('go');
    await vi.waitFor(async () => expect(stateOf(await loadSnapshot(first.resources, run.id, 'lead'))).toBe('tool_executing'), UNTIL);
    await kill(first);

    const second = await coordinator(quickTeam, namespace, 'heir');
    await second.runtime.transport.control(run.id, parseAgentPath('lead'), { type: 'abort' });
    expect(await record(second.resources, run.id, 'lead')).toMatchObject({ status: 'running', abortRequested: true });
    const outcome = await (await second.runtime.resume(run.id)).result;
    expect(outcome.status).toBe('aborted');
  });

  it('refuses while a live process hosts the run, changing nothing', async () => {
    const namespace = `stranded${++namespaces}`;
    const first = await coordinator(slowTeam, namespace, 'alive');
    const run = first.runtime.run('go');
    await vi.waitFor(async () => expect(await record(first.resources, run.id, 'lead/helper#1')).toMatchObject({ status: 'running' }), UNTIL);

    const second = await coordinator(quickTeam, namespace, 'heir');
    const refused = second.runtime.resume(run.id);
    await expect(refused).rejects.toBeInstanceOf(TroupeError);
    await expect(refused).rejects.toMatchObject({
      code: 'run_still_hosted',
      message: `run ${run.id} is still hosted by a live process (lead on alive, lead/helper#1 on alive)`,
    });
    expect(await second.runtime.store.getRun(run.id)).toMatchObject({ status: 'running' });
    await first.runtime.transport.control(run.id, parseAgentPath('lead'), { type: 'abort' });
    expect((await run.result).status).toBe('aborted');
  });
});
