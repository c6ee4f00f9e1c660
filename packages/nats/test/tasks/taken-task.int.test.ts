/**
 * A worker logs, at info through pino, each task it takes and how the task ended: the run id, the
 * actor's path, its agent, the worker, the duration and the outcome — `done` for a child that
 * answered, `failed` (with the error code) for one whose model failed, `waiting` for one put aside
 * until a user answers.
 */
import { Writable } from 'node:stream';
import { createToolRegistry } from '@troupe/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@troupe/runtime';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';
import { askTool, delegate, testGraph, untilWaiting } from '@troupe/runtime/testing';
import { startCluster } from '../cluster.js';

const graph = testGraph({
  lead: {
    delegates: ['helper', 'broken', 'asker'],
    script: [{ toolCalls: [delegate('helper', 'help'), delegate('broken', 'break'), delegate('asker', 'ask')] }, { text: 'never' }],
  },
  helper: { placement: 'remote', script: [{ text: 'helped' }] },
  broken: { placement: 'remote', script: [{ error: { kind: 'auth', message: 'bad key' } }] },
  asker: { placement: 'remote', tools: ['ask'], script: [{ toolCalls: [{ name: 'ask', arguments: { question: 'Which?' } }] }] },
});

let server: NatsServerProcess;

beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('worker logs', { timeout: 30_000 }, () => {
  it('logs each task taken and ended, with run, path, agent, duration and outcome', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    const cluster = await startCluster({ graph, tools: createToolRegistry({ factories: [askTool] }), workers: 0, server });
    try {
      await cluster.addWorker({ id: 'w-log', logger: createLogger({ level: 'info', destination }) });
      const run = cluster.runtime.run('go');
      await untilWaiting(run);
      const ended = (): Array<Record<string, unknown>> => lines.filter((line) => line['msg'] === 'task ended');
      await expect.poll(() => ended().length).toBe(3);

      const taken = lines.filter((line) => line['msg'] === 'task taken');
      expect(taken.map((line) => line['path']).sort()).toEqual(['lead/asker#1', 'lead/broken#1', 'lead/helper#1']);
      for (const line of taken)
        expect(line).toMatchObject({ level: 30, worker: 'w-log', runId: run.id, agent: String(line['path']).slice(5, -2), delivery: 1 });
      const byPath = new Map(ended().map((line) => [line['path'], line]));
      expect(byPath.get('lead/helper#1')).toMatchObject({ level: 30, worker: 'w-log', runId: run.id, agent: 'helper', outcome: 'done', stopReason: 'stop' });
      expect(byPath.get('lead/broken#1')).toMatchObject({ agent: 'broken', outcome: 'failed', stopReason: 'error', error: 'provider_error' });
      expect(byPath.get('lead/asker#1')).toMatchObject({ agent: 'asker', outcome: 'waiting' });
      for (const line of ended()) expect(line['durationMs']).toEqual(expect.any(Number));
      // The run ends before the cluster closes under it.
      await run.abort();
      expect((await run.result).status).toBe('aborted');
    } finally {
      await cluster.close();
    }
  });
});
