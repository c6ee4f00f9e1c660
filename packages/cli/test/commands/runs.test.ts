/**
 * Proves the commands that read recorded runs, on a real runs directory: `troupe runs --status`
 * lists only runs with the given statuses, each with its turns (as `troupe show` totals them); `troupe runs prune --older-than` deletes the runs that
 * ended longer ago than the duration — never a running, waiting or interrupted one, however old — says what
 * it deleted, and with `--dry-run` deletes nothing; `troupe show --json` is one object with the
 * run, its actors and what they wait for; `troupe show --messages [path]` prints an actor's
 * conversation (the entry's by default) or its messages as JSON lines.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRunId, parseAgentPath, type Message, type RunId } from '@troupe/core';
import { createFileRunStore, type RunRecord, type RunStatus } from '@troupe/runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { parseDuration } from '../../src/commands/parse-duration.js';
import { captureIo, fixturePath } from '../run-cli.js';

const DAY = 86_400_000;

/** Runs a graph file into `runs` and returns the run's id. */
async function recordRun(runs: string, fixture: string, input = 'Say ping'): Promise<string> {
  const io = captureIo();
  await runCli(['run', '--runs-dir', runs, fixturePath(fixture), input], io);
  const id = /\b(run_\w+)/.exec(io.stderrText())?.[1];
  if (id === undefined) throw new Error(`no run id in ${io.stderrText()}`);
  return id;
}

async function cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIo();
  const code = await runCli(args, io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe('troupe runs --status', () => {
  const runs = mkdtempSync(join(tmpdir(), 'troupe-status-'));
  const ids: Partial<Record<RunStatus, string>> = {};
  beforeAll(async () => {
    ids.done = await recordRun(runs, 'echo.yaml');
    ids.failed = await recordRun(runs, 'failing.yaml');
    ids.waiting = await recordRun(runs, 'asks.yaml');
  });

  it('lists only the runs with the given statuses', async () => {
    const listed = await cli(['runs', '--runs-dir', runs, '--status', 'failed,waiting', '--json']);
    expect(listed.code).toBe(0);
    const statuses = listed.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as RunRecord).status);
    expect(statuses.sort()).toEqual(['failed', 'waiting']);
    const done = await cli(['runs', '--runs-dir', runs, '--status', 'done']);
    expect(done.stdout).toContain(ids.done);
    expect(done.stdout).not.toContain(ids.failed);
  });

  it("lists each run's turns (the table's TURNS column, --json's record) and troupe show totals them", async () => {
    const listed = await cli(['runs', '--runs-dir', runs, '--status', 'done']);
    expect(listed.stdout.split('\n')[0]).toMatch(/^RUN\s+STATUS\s+ENTRY\s+STARTED\s+DURATION\s+TOKENS\s+COST\s+TURNS$/);
    // echo.yaml: two turns of 25 and 46 tokens.
    expect(listed.stdout.split('\n').find((line) => line.startsWith(ids.done ?? '-'))).toMatch(/\s71\s+\$0\.0033\s+2$/);
    const json = await cli(['runs', '--runs-dir', runs, '--status', 'done', '--json']);
    expect(JSON.parse(json.stdout) as RunRecord).toMatchObject({ id: ids.done, turns: 2, usage: { totalTokens: 71 } });
    const shown = await cli(['show', ids.done ?? '-', '--runs-dir', runs]);
    expect(shown.stdout).toContain('total: tokens 71 · $0.0033 · turns 2\n');
    expect(JSON.parse((await cli(['show', ids.done ?? '-', '--runs-dir', runs, '--json'])).stdout)).toMatchObject({ turns: 2 });
  });

  it('says when no run has the status, and refuses a status that does not exist', async () => {
    expect(await cli(['runs', '--runs-dir', runs, '--status', 'aborted'])).toEqual({
      code: 0,
      stdout: '',
      stderr: `troupe: no aborted runs recorded in ${runs}\n`,
    });
    const bad = await cli(['runs', '--runs-dir', runs, '--status', 'finished']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected one or more of running, waiting, interrupted, done, failed, aborted');
  });
});

describe('troupe runs prune', () => {
  const record = (id: RunId, status: RunStatus, endedDaysAgo: number): RunRecord => ({
    id,
    entry: 'assistant',
    input: 'x',
    status,
    startedAt: Date.now() - endedDaysAgo * DAY - 1000,
    ...(status === 'done' || status === 'failed' ? { endedAt: Date.now() - endedDaysAgo * DAY } : {}),
  });

  async function seeded(): Promise<{ runs: string; old: RunId[]; kept: RunId[] }> {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-prune-'));
    const store = createFileRunStore(runs);
    const ids = Array.from({ length: 5 }, (_, i) => createRunId(Date.now() - i));
    const [oldDone, oldFailed, newDone, oldRunning, oldWaiting] = ids as [RunId, RunId, RunId, RunId, RunId];
    await store.createRun(record(oldDone, 'done', 10));
    await store.createRun(record(oldFailed, 'failed', 8));
    await store.createRun(record(newDone, 'done', 1));
    // This process created it, so the file store reports it running (its process is alive).
    await store.createRun(record(oldRunning, 'running', 30));
    await store.createRun(record(oldWaiting, 'waiting', 30));
    store.appendEvent({ type: 'turn_start', turn: 1, runId: oldDone, agentPath: parseAgentPath('assistant'), seq: 1, ts: 1 });
    await store.flush(oldDone);
    return { runs, old: [oldDone, oldFailed], kept: [newDone, oldRunning, oldWaiting] };
  }

  it('deletes the runs that ended longer ago, never a running, waiting or interrupted one, and says so', async () => {
    const { runs, old, kept } = await seeded();
    const pruned = await cli(['runs', 'prune', '--older-than', '7d', '--runs-dir', runs]);
    expect(pruned.code).toBe(0);
    const lines = pruned.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const id of old) expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^deleted ${id} · (done|failed) · assistant · ended \\d{4}-`)));
    expect(lines.at(-1)).toBe(`deleted 2 runs that ended more than 7d ago from ${runs}; kept 3 runs (1 running, 1 waiting)`);
    const left = (await createFileRunStore(runs).listRuns()).map((run) => run.id);
    expect(left.sort()).toEqual([...kept].sort());
  });

  it('deletes nothing with --dry-run, and says what it would delete', async () => {
    const { runs } = await seeded();
    const dry = await cli(['runs', 'prune', '--older-than', '1w', '--dry-run', '--runs-dir', runs]);
    expect(dry.stdout).toMatch(/^would delete run_\w+ · done · /);
    expect(dry.stdout.trimEnd().split('\n').at(-1)).toBe(
      `would delete 2 runs that ended more than 1w ago from ${runs}; would keep 3 runs (1 running, 1 waiting)`,
    );
    expect(await createFileRunStore(runs).listRuns()).toHaveLength(5);
  });

  it('says when nothing is old enough', async () => {
    const { runs } = await seeded();
    const none = await cli(['runs', 'prune', '--older-than', '30d', '--runs-dir', runs]);
    expect(none.stdout).toBe(`nothing to delete in ${runs}: no run ended more than 30d ago; kept 5 runs (1 running, 1 waiting)\n`);
  });

  it('needs a duration it understands', async () => {
    expect((await cli(['runs', 'prune'])).stderr).toContain("required option '--older-than <duration>' not specified");
    expect((await cli(['runs', 'prune', '--older-than', '7 days'])).stderr).toContain('expected a duration such as 7d, 12h, 30m or 1d12h');
  });

  it.each([
    ['7d', 7 * DAY],
    ['12h', 12 * 3_600_000],
    ['1d12h', 1.5 * DAY],
    ['90s', 90_000],
    ['2w', 14 * DAY],
    ['0.5h', 1_800_000],
  ])('reads %s as a duration', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '7', 'd', '7x', '7 d', '-1d'])('does not read %j as a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('troupe show', () => {
  const runs = mkdtempSync(join(tmpdir(), 'troupe-show-'));
  let done = '';
  let waiting = '';
  beforeAll(async () => {
    done = await recordRun(runs, 'echo.yaml');
    waiting = await recordRun(runs, 'asks.yaml');
  });

  it('writes the run, its actors and what they wait for as one JSON object with --json', async () => {
    const shown = await cli(['show', waiting, '--runs-dir', runs, '--json']);
    expect(shown.code).toBe(0);
    const json = JSON.parse(shown.stdout) as { run: RunRecord; actors: Record<string, unknown>[]; usage: unknown };
    expect(shown.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(json.run).toMatchObject({ id: waiting, status: 'waiting', entry: 'careful' });
    expect(json.actors).toEqual([
      {
        path: 'careful',
        state: 'waiting_user',
        turns: 1,
        usage: expect.objectContaining({ totalTokens: expect.any(Number) }),
        waiting: { kind: 'approval', tool: 'echo', callId: 'call_1_1' },
      },
    ]);
    expect(json.usage).toEqual(json.actors[0]?.['usage']);
  });

  it("prints the entry's conversation with --messages", async () => {
    const shown = await cli(['show', done, '--runs-dir', runs, '--messages']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(
      [
        `run ${done} · assistant · 4 messages`,
        '',
        'user',
        '  Say ping',
        '',
        'assistant',
        '  Let me echo that.',
        '  → echo {"text":"ping"}',
        '',
        'tool result · echo (call_1_1)',
        '  ping',
        '',
        'assistant',
        '  The echo said ping.',
        '',
      ].join('\n'),
    );
  });

  it('prints the messages of the actor at a path as JSON lines with --messages --json', async () => {
    const shown = await cli(['show', done, '--runs-dir', runs, '--messages', 'assistant', '--json']);
    const messages = shown.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Message);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
  });

  it('names the actors that have a conversation when the path has none', async () => {
    const shown = await cli(['show', done, '--runs-dir', runs, '--messages', 'asistant']);
    expect(shown.code).toBe(2);
    expect(shown.stderr).toBe(`troupe show: no actor asistant has a conversation in run ${done}; give an actor's path with --messages <path>: assistant\n`);
  });
});
