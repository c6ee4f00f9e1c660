/**
 * `troupe dashboard` as a user runs it: it prints its URL with the token, serves the API with the
 * graph (a request without the token is refused), starts a run from the API into the runs folder,
 * and stops on Ctrl-C with exit 0; a bad graph file is said as file:line problems, exit 2.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFileRunStore } from '@troupe/runtime';
import { spawnTroupe, startTroupe } from '../spawn-troupe.js';

const TEAM = fileURLToPath(new URL('../../../../apps/examples/team.yaml', import.meta.url));
let runsDir: string | undefined;

afterEach(async () => {
  if (runsDir !== undefined) await rm(runsDir, { recursive: true, force: true });
});

describe('troupe dashboard', () => {
  it('prints its URL with the token, serves the API, starts a run into the runs folder, and stops on Ctrl-C', async () => {
    runsDir = await mkdtemp(join(tmpdir(), 'troupe-dashboard-cli-'));
    const troupe = startTroupe(['dashboard', TEAM, '--port', '0', '--runs-dir', runsDir]);
    const printed = await troupe.matching('stdout', /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/);
    const url = new URL(/http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(printed)?.[0] ?? '');
    const token = url.searchParams.get('token') ?? '';
    const auth = { authorization: `Bearer ${token}` };

    expect((await fetch(`${url.origin}/api/runs`)).status).toBe(401);
    const info = (await (await fetch(`${url.origin}/api/info`, { headers: auth })).json()) as { graph: { entry: string } };
    expect(info.graph.entry).toBe('lead');
    const started = await fetch(`${url.origin}/api/runs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', origin: url.origin },
      body: JSON.stringify({ input: 'Should we adopt TypeScript 7?' }),
    });
    expect(started.status).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    const store = createFileRunStore(runsDir);
    await vi.waitFor(async () => expect((await store.getRun(runId as never))?.status).toBe('done'), { timeout: 30_000, interval: 100 });

    troupe.child.kill('SIGINT');
    const exit = await troupe.exited;
    expect(exit.code).toBe(0);
  });

  it('says a bad graph file as file:line problems and exits 2', async () => {
    const exit = await spawnTroupe(['dashboard', 'broken.yaml', '--port', '0']);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(/broken\.yaml:\d+:\d+: /);
  });
});
