import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { TroupeError } from '@troupe/core';
import { isProcessAlive, type ProcessIdentity, processIdentity } from '../local/process-identity.js';
import { RunStoreErrorCode } from '../runtime-error-codes.js';
import { fileCalls } from './file-calls.js';

/** The file, in a run's folder, naming the process that took the run up from the one before it. */
const TAKEN = 'taken.json';

/** Whether two identities name the same process. */
export function sameProcess(a: ProcessIdentity, b: ProcessIdentity): boolean {
  return a.pid === b.pid && a.host === b.host && a.start === b.start;
}

/**
 * Makes this process the one that takes up the run in `dir` (to answer it, or resume it) from
 * the process recorded before it, or throws `run_already_answered` when another live process did
 * so first: of processes racing, exactly one wins, as the marker appears by `link`, which fails
 * when the file exists (and never shows a half-written marker). A marker whose process has ended
 * lapses and is replaced.
 */
export async function takeOver(dir: string, runId: string): Promise<void> {
  const me = processIdentity();
  const marker = join(dir, TAKEN);
  const draft = join(dir, `${TAKEN}.${process.pid}.tmp`);
  await writeFile(draft, `${JSON.stringify(me)}\n`);
  try {
    // Twice: once more after moving aside the marker of a process that has ended.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await link(draft, marker);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readIdentity(marker);
      if (holder !== undefined && sameProcess(holder, me)) return;
      if (holder !== undefined && isProcessAlive(holder) !== false) {
        throw new TroupeError(
          RunStoreErrorCode.AlreadyAnswered,
          `run ${runId} was already answered by another process (pid ${holder.pid} on ${holder.host}), which goes on with it`,
          { data: { runId, pid: holder.pid, host: holder.host } },
        );
      }
      // Moved aside, not deleted: of two processes breaking the same lapsed marker, one moves it.
      await rename(marker, `${marker}.${process.pid}.lapsed`)
        .then(() => rm(`${marker}.${process.pid}.lapsed`, { force: true }))
        .catch(() => undefined);
    }
    throw new TroupeError(RunStoreErrorCode.AlreadyAnswered, `run ${runId} was already answered by another process, which goes on with it`, {
      data: { runId },
    });
  } finally {
    await rm(draft, { force: true });
  }
}

/** Ends the takeover of the run in `dir`: its owner waits for an answer again, which any process may now give. */
export async function releaseTakeover(dir: string): Promise<void> {
  // One unlink (callback fs), not `rm` of `node:fs/promises`, which stats first and chains
  // promises: every run of a process releases its marker each time it waits again.
  await fileCalls.unlink(`${dir}${sep}${TAKEN}`).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  });
}

async function readIdentity(file: string): Promise<ProcessIdentity | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ProcessIdentity;
  } catch {
    return undefined;
  }
}
