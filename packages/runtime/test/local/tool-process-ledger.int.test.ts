/**
 * The file ledger of tool process groups, with real process groups: a group recorded while it
 * runs and then forgotten is not touched; a group a killed process left running is ended by
 * `reap` (its leader, or only a member once the leader has exited), and its record removed; a
 * record whose pid now belongs to another process (pid reuse: another start time) leaves that
 * process alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunId } from '@troupe/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileToolProcessLedger, isGroupAlive, isProcessAlive, processIdentity } from '../../src/index.js';

const runId = parseRunId('run_ledger');
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.pid !== undefined && isGroupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
});

/** Starts `sh -c script` as the leader of its own process group; resolves with it and its first line of output. */
function group(script: string): Promise<{ pgid: number; line: string }> {
  const child = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(child);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.setEncoding('utf8').once('data', (line: string) => resolve({ pgid: child.pid as number, line: line.trim() }));
  });
}

function ledgerIn(): { ledger: ReturnType<typeof createFileToolProcessLedger>; folder: string } {
  const dir = mkdtempSync(join(tmpdir(), 'troupe-ledger-'));
  return { ledger: createFileToolProcessLedger(() => dir), folder: join(dir, 'processes') };
}

describe('the tool process ledger', () => {
  it('ends a recorded group that still runs, and forgets it', async () => {
    const { ledger, folder } = ledgerIn();
    const { pgid } = await group('echo up; exec sleep 1000');
    ledger.started(runId, pgid);
    expect(readdirSync(folder)).toEqual([`${pgid}.json`]);
    expect(await ledger.reap(runId, { graceMs: 5000 })).toEqual([pgid]);
    expect(isGroupAlive(pgid)).toBe(false);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('ends the members of a group whose leader has exited', async () => {
    const { ledger } = ledgerIn();
    // The leader prints its background child's pid and exits; the child keeps the group.
    const { pgid, line } = await group('sleep 1000 & echo $!');
    const member = Number(line);
    ledger.started(runId, pgid);
    const leader = started.at(-1) as ChildProcess;
    if (leader.exitCode === null) await new Promise((resolve) => leader.once('exit', resolve));
    expect(isProcessAlive({ pid: member, host: hostname() })).toBe(true);
    expect(await ledger.reap(runId)).toEqual([pgid]);
    expect(isProcessAlive({ pid: member, host: hostname() })).toBe(false);
  });

  it('leaves alone a group it was told has ended', async () => {
    const { ledger, folder } = ledgerIn();
    const { pgid } = await group('echo up; exec sleep 1000');
    ledger.started(runId, pgid)();
    expect(existsSync(join(folder, `${pgid}.json`))).toBe(false);
    expect(await ledger.reap(runId)).toEqual([]);
    expect(isGroupAlive(pgid)).toBe(true);
  });

  it('leaves alone a process that reuses a recorded pid', async () => {
    const { ledger, folder } = ledgerIn();
    const { pgid } = await group('echo up; exec sleep 1000');
    const identity = processIdentity(pgid);
    expect(identity.start).toBeDefined();
    ledger.started(runId, pgid);
    // As if the recorded group's leader had started at another time: this one only has its pid.
    writeFileSync(join(folder, `${pgid}.json`), JSON.stringify({ ...identity, start: `${Number(identity.start) - 1}` }));
    expect(await ledger.reap(runId)).toEqual([]);
    expect(isGroupAlive(pgid)).toBe(true);
    expect(readdirSync(folder)).toEqual([]);
  });
});
