import { parseRunId } from '@troupe/core';
import { createFileRunStore, type RunRecord, type RunStore } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { runsDirFlag } from './runs-dir-flag.js';

/** A run found in a runs directory, with its store and the flag that finds the directory again. */
export interface LocalRun {
  store: RunStore;
  run: RunRecord;
  /** ` --runs-dir dir`, or nothing for the default directory. */
  flags: string;
}

/** Finds run `runId` in `runsDir`; says so (`troupe <command>: no run …`) and resolves undefined when it is not there. */
export async function findLocalRun(runsDir: string, runId: string, command: string, io: CliIo): Promise<LocalRun | undefined> {
  const store = createFileRunStore(runsDir);
  const flags = runsDirFlag(runsDir);
  const run = await store.getRun(parseRunId(runId));
  if (run === undefined) io.stderr(`troupe ${command}: no run ${runId} in ${runsDir} (troupe runs${flags} lists them)\n`);
  return run === undefined ? undefined : { store, run, flags };
}
