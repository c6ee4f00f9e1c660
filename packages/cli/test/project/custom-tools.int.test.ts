/**
 * Custom tools from a graph file's TypeScript module, through the real command (child processes):
 * `troupe run` loads the module and the agent calls its tool in the run's process; `troupe worker`
 * loads it too, and with `--nats` the remote agent calls the tool on the worker (the tool says
 * which process ran it); `troupe graph validate` reports every bad module at once, each at its
 * `module:` value's file:line:col, with where in the module a load failed.
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

describe('custom tools from a graph file', { timeout: 60_000 }, () => {
  it('are called by troupe run', async () => {
    const result = await spawnTroupe(['run', 'custom-tool.yaml', '--input', 'Weather?']);
    expect(result.stderr).toContain('[lead/forecaster#1] tool forecast');
    const pid = /sunny in Oslo \(pid (\d+)\)/.exec(result.stdout)?.[1];
    expect(result.stdout).toBe(`Lead: sunny in Oslo (pid ${pid})\n`);
    expect(result.code).toBe(0);
  });

  it('are called on the worker that hosts the agent', async () => {
    const nats = ['--nats', server.url, '--namespace', `tools${process.pid}`];
    const worker = startTroupe(['worker', 'custom-tool.yaml', ...nats, '--agents', 'forecaster']);
    try {
      await worker.matching('stdout', /ready: forecaster/);
      const result = await spawnTroupe(['run', 'custom-tool.yaml', '--input', 'Weather?', ...nats]);
      expect(result.stdout).toBe(`Lead: sunny in Oslo (pid ${worker.child.pid})\n`);
      expect(result.code).toBe(0);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('are checked by troupe graph validate, every bad module at its position', async () => {
    const result = await spawnTroupe(['graph', 'validate', 'bad-tool-modules.yaml']);
    const at = (name: string): string => new URL(`../fixtures/${name}`, import.meta.url).pathname;
    expect(result.stderr).toBe(
      [
        // Problems name the file as it was given, as troupe run's do.
        `bad-tool-modules.yaml:8:17: tool module ./tools/throws.ts: failed to load: NO_SUCH_TROUPE_KEY is not set (at line 3, column 30)`,
        `bad-tool-modules.yaml:9:17: tool module ./tools/missing.ts: file not found (looked for ${at('tools/missing.ts')}; the path is relative to the graph file)`,
        `bad-tool-modules.yaml:10:17: tool module ./forecast.ts: file not found (looked for ${at('forecast.ts')}; the path is relative to the graph file)`,
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(2);
  });
});
