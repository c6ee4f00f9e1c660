/**
 * Secrets probe (issue #20): a model server that echoes the API key back in its error bodies —
 * first in a retryable 500 (the run retries and goes on), then in a 401 — and a graph run against
 * it, locally with the file run store and over NATS on a worker, with logs at debug level. Then
 * every place the run leaves data is searched for the key: the run folder (every file), stdout and
 * stderr of every process (events as JSON lines, debug logs), and over NATS every message of
 * every JetStream stream (the run events, the task queue, the KV buckets of runs, actors and
 * checkpoints). The key is nowhere — not whole, and not its distinctive tail.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectNats, openNatsResources, type NatsResources } from '@troupe/nats';
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTroupe, spawnTroupe, type RunningTroupe } from '../spawn-troupe.js';

/** Not shaped like any vendor's key, so only knowing the key itself can redact it. */
const KEY = 'replay-secret-Zq81xVw3Kp0LmN7a';
const TAIL = 'Zq81xVw3Kp0LmN7a';

const STREAM = [
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'replay', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello.' }, finish_reason: null }] })}\n\n`,
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'replay', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'replay', choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } })}\n\ndata: [DONE]\n\n`,
];

type Reply = 'server_error' | 'unauthorized' | 'ok';

let server: Server;
let url = '';
let queue: Reply[] = [];
let dir = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const next = queue.shift() ?? 'unauthorized';
      if (next === 'ok') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const frame of STREAM) res.write(frame);
        res.end();
        return;
      }
      // The vendor's error body, echoing the key as some gateways do.
      const status = next === 'server_error' ? 500 : 401;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Request with key ${KEY} failed (${status}).`, type: 'server_error', code: String(status) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-secrets-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({ REPLAY_URL: url, REPLAY_KEY: KEY });

/** Every file under `root`, with its contents. */
async function filesUnder(root: string): Promise<Array<{ path: string; text: string }>> {
  const found: Array<{ path: string; text: string }> = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found.push({ path, text: await readFile(path, 'latin1') });
  }
  return found;
}

/** The places (named) whose text holds the key or its tail. */
function leaks(places: ReadonlyArray<{ path: string; text: string }>): string[] {
  return places.filter(({ text }) => text.includes(KEY) || text.includes(TAIL)).map(({ path }) => path);
}

/** Every message of every stream of the server (KV buckets are streams too), as text. */
async function everyStreamMessage(resources: NatsResources): Promise<Array<{ path: string; text: string }>> {
  const found: Array<{ path: string; text: string }> = [];
  for await (const stream of resources.jsm.streams.list()) {
    const { first_seq: first, last_seq: last } = stream.state;
    for (let seq = first; seq <= last && last > 0; seq++) {
      const message = await resources.jsm.streams.getMessage(stream.config.name, { seq }).catch(() => null);
      if (message === null) continue;
      found.push({
        path: `${stream.config.name}#${seq} ${message.subject}`,
        text: `${[...(message.header ?? [])].map(([k, v]) => `${k}: ${v.join(',')}`).join('\n')}\n${message.string()}`,
      });
    }
  }
  return found;
}

describe('an API key echoed back by the model server', () => {
  it('is nowhere in a local run: run folder, events, debug logs', { timeout: 60_000 }, async () => {
    queue = ['server_error', 'ok', 'unauthorized'];
    const runsDir = join(dir, 'runs');
    const first = await spawnTroupe(['run', 'replay-server.yaml', '--input', 'x', '--runs-dir', runsDir, '--json', '--log-level', 'debug'], { env: env() });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('"type":"agent_end"');
    // The retried 500 is in the events, scrubbed.
    expect(first.stdout).toContain('[redacted]');
    const second = await spawnTroupe(['run', 'replay-server.yaml', '--input', 'x', '--runs-dir', runsDir, '--json', '--log-level', 'debug'], { env: env() });
    expect(second.code).toBe(1);
    expect(second.stdout).toContain('[redacted]');

    const files = await filesUnder(runsDir);
    expect(files.length).toBeGreaterThan(2);
    const outputs = [first, second].flatMap((r, i) => [
      { path: `run ${i + 1} stdout`, text: r.stdout },
      { path: `run ${i + 1} stderr`, text: r.stderr },
    ]);
    expect(leaks([...files, ...outputs])).toEqual([]);
  });

  describe('over NATS', () => {
    let nats: NatsServerProcess;
    let resources: NatsResources;
    const started: RunningTroupe[] = [];

    beforeAll(async () => {
      nats = await startNatsServer();
      resources = await openNatsResources(await connectNats({ servers: nats.url }), { namespace: 'secrets' });
    });

    afterAll(async () => {
      for (const { child } of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await Promise.all(started.map((p) => p.exited.catch(() => undefined)));
      await resources?.nc.close();
      await nats?.stop();
    });

    it('is nowhere in the streams, the KV buckets or the worker and coordinator output', { timeout: 90_000 }, async () => {
      queue = ['server_error', 'ok', 'unauthorized'];
      const flags = ['--nats', nats.url, '--namespace', 'secrets', '--log-level', 'debug'];
      const worker = startTroupe(['worker', 'replay-server.yaml', '--id', 'w1', ...flags], { env: env() });
      started.push(worker);
      await worker.matching('stdout', /ready/);

      const first = await spawnTroupe(['run', 'replay-server.yaml', '--input', 'x', '--remote-all', '--json', ...flags], { env: env() });
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('[redacted]');
      const second = await spawnTroupe(['run', 'replay-server.yaml', '--input', 'x', '--remote-all', '--json', ...flags], { env: env() });
      expect(second.code).toBe(1);

      worker.child.kill('SIGTERM');
      const stopped = await worker.exited;
      const messages = await everyStreamMessage(resources);
      expect(messages.length).toBeGreaterThan(10);
      const outputs = [
        { path: 'worker stdout', text: stopped.stdout },
        { path: 'worker stderr', text: stopped.stderr },
        ...[first, second].flatMap((r, i) => [
          { path: `run ${i + 1} stdout`, text: r.stdout },
          { path: `run ${i + 1} stderr`, text: r.stderr },
        ]),
      ];
      expect(leaks([...messages, ...outputs])).toEqual([]);
    });
  });
});
