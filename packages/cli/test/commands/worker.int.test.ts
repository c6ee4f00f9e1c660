/**
 * `troupe worker` as a process: an idle worker stops promptly on SIGTERM with exit 0 after saying
 * it is ready, and a NATS that cannot be reached is one clear line on stderr with exit 2 — no
 * stack trace, and no password from a URL.
 */
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTroupe, startTroupe } from '../spawn-troupe.js';

let server: NatsServerProcess;

beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('troupe worker', { timeout: 30_000 }, () => {
  it('exits 0 on SIGTERM when idle', async () => {
    const worker = startTroupe(['worker', 'nats-team.yaml', '--nats', server.url, '--namespace', `idle${process.pid}`, '--agents', 'researcher,critic']);
    const ready = await worker.matching('stdout', /ready/);
    expect(ready).toMatch(/^worker worker-\w+ ready: researcher,critic \(graph [0-9a-f]{16}\)\n$/);
    worker.child.kill('SIGTERM');
    const exit = await worker.exited;
    expect(exit.signal).toBeNull();
    expect(exit.code).toBe(0);
    expect(exit.stdout).toBe(ready);
    const logs = exit.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(logs).toEqual(['worker started', 'worker stopping', 'worker stopped']);
  });

  it('says clearly when NATS cannot be reached, without the password of a URL', async () => {
    const result = await spawnTroupe(['worker', 'nats-team.yaml', '--nats', 'nats://ann:s3cret-pw@127.0.0.1:1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('troupe worker: cannot connect to NATS at nats://***@127.0.0.1:1: connection refused\n');
    expect(result.stdout).toBe('');
  });

  it('exits 2 for an agent the graph does not have', async () => {
    const result = await spawnTroupe(['worker', 'nats-team.yaml', '--nats', server.url, '--agents', 'researcher,nobody']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('troupe worker: unknown agent "nobody" in --agents (agents of nats-team.yaml: lead, researcher, critic)\n');
  });
});
