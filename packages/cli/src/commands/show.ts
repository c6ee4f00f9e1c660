import { parseRunId, type RunId } from '@troupe/core';
import type { RunStore } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { ActorTree, formatCost, formatRow } from '../view/actor-tree.js';
import { runUsageOf } from './run-usage.js';

/** What `troupe show` reads. */
export interface ShowOptions {
  runId: string;
  store: RunStore;
  /** Names the store in the message saying the run is not there (`.troupe/runs`, `namespace "default" on NATS at …`). */
  where: string;
  /** The flags that reach the store again, for the hint (` --runs-dir dir`, ` --nats url`). */
  flags: string;
  /**
   * Where each actor of a distributed run stands by its record (`queued`, `running on worker-1`),
   * shown after its row; an actor with a record and no event yet (a task not taken) gets a row.
   */
  placements?: (runId: RunId) => Promise<ReadonlyMap<string, string>>;
}

/**
 * `troupe show <runId>`: the run's record and its actor tree as its event log tells it, each
 * actor with its state, turns, tokens and cost, and what the run waits for.
 */
export async function showCommand(options: ShowOptions, io: CliIo): Promise<ExitCode> {
  const { store } = options;
  const runId = parseRunId(options.runId);
  const run = await store.getRun(runId);
  if (run === undefined) {
    io.stderr(`troupe: no run ${options.runId} in ${options.where} (troupe runs${options.flags} lists them)\n`);
    return ExitCode.BadInput;
  }
  const tree = new ActorTree();
  const waiting = new Map<string, string>();
  const events = await store.readEvents(runId);
  for (const event of events) {
    tree.apply(event);
    if (event.type === 'permission_request') waiting.set(event.agentPath, `approval of ${event.toolName} (call ${event.toolCallId})`);
    else if (event.type === 'question') waiting.set(event.agentPath, `an answer to "${event.question}"`);
    else if (event.type === 'state' && event.state !== 'waiting_user') waiting.delete(event.agentPath);
  }
  const placements = await options.placements?.(runId);
  for (const path of placements?.keys() ?? []) tree.track(path);
  io.stdout(`run ${run.id} · ${run.status} · entry ${run.entry} · started ${new Date(run.startedAt).toISOString()}\n`);
  io.stdout(`input: ${run.input}\n`);
  for (const row of tree.rows) {
    const placement = placements?.get(row.path);
    io.stdout(`${formatRow(row)}${placement === undefined ? '' : ` · ${placement}`}\n`);
  }
  const usage = await runUsageOf(store, run, events);
  io.stdout(`total: tokens ${usage.totalTokens} · ${formatCost(usage)}\n`);
  if (run.status === 'waiting' || placements !== undefined) {
    for (const [path, what] of waiting) io.stdout(`waiting: ${path} for ${what}\n`);
  }
  if (run.error !== undefined) io.stdout(`error: ${run.error.message} [${run.error.code}]\n`);
  if (run.status === 'interrupted') io.stdout(`interrupted: the process running it was killed; troupe resume ${run.id}${options.flags} goes on from its last checkpoints\n`);
  return ExitCode.Ok;
}
