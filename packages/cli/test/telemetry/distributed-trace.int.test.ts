/**
 * A distributed run traced end to end, with real processes on a real nats-server: `troupe worker`
 * hosts the remote specialists of nats-team.yaml and `troupe run --nats` runs the lead, both
 * exporting over OTLP to one collector in this test under different service names. The worker's
 * spans (flushed when SIGTERM stops it) and the coordinator's share one trace id, and each
 * specialist's invoke_agent span — from the worker, carrying its id — has the coordinator's
 * execute_tool span of its delegation as parent.
 */
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTroupe, startTroupe, type RunningTroupe } from '../spawn-troupe.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

const NAMESPACE = `otel${process.pid}`;

let server: NatsServerProcess;
let receiver: OtlpReceiver;
let worker: RunningTroupe | undefined;
let nats: string[] = [];

beforeAll(async () => {
  [server, receiver] = await Promise.all([startNatsServer(), startOtlpReceiver()]);
  nats = ['--nats', server.url, '--namespace', NAMESPACE];
  worker = startTroupe(['worker', 'nats-team.yaml', ...nats, '--id', 'w-otel', '--agents', 'researcher,critic'], {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'otel-worker' },
  });
  await worker.matching('stdout', /ready/);
}, 30_000);

afterAll(async () => {
  if (worker !== undefined && worker.child.exitCode === null) {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
  await Promise.all([server?.stop(), receiver?.close()]);
});

describe('a distributed run exporting over OTLP', { timeout: 60_000 }, () => {
  it("puts the worker's spans in the coordinator's trace, under the delegations", async () => {
    const run = await spawnTroupe(['run', 'nats-team.yaml', '--input', 'Should we?', ...nats], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'otel-coordinator' },
    });
    expect(run.stdout).toBe('Asking the team.\nDecision made. Last word: The risks are small.\n');
    expect(run.code).toBe(0);
    // Stopping the worker flushes what it batched.
    worker?.child.kill('SIGTERM');
    expect((await worker?.exited)?.code).toBe(0);

    const from = (service: string): ReceivedSpan[] => receiver.spans.filter((span) => span.resource['service.name'] === service);
    const coordinator = from('otel-coordinator');
    const remote = from('otel-worker');
    const root = coordinator.find((span) => span.name === 'invoke_workflow lead');
    expect(root).toBeDefined();
    expect(new Set([...coordinator, ...remote].map((span) => span.traceId))).toEqual(new Set([root?.traceId]));
    for (const agent of ['researcher', 'critic']) {
      const delegation = coordinator.find((span) => span.name === `execute_tool delegate_to_${agent}`);
      const child = remote.find((span) => span.name === `invoke_agent ${agent}`);
      expect(delegation).toBeDefined();
      expect(child?.parentSpanId).toBe(delegation?.spanId);
      expect(child?.attributes['troupe.host.id']).toBe('w-otel');
      expect(child?.resource['service.instance.id']).toBe('w-otel');
      // Its model call is inside it, on the worker too.
      expect(remote.some((span) => span.name.startsWith('chat ') && span.parentSpanId === child?.spanId)).toBe(true);
    }
  });
});
