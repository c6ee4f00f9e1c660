import { parseRunId, type RunId } from '@troupe/core';
import type { RunStore } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { ActorTree, formatCost, formatRow } from '../view/actor-tree.js';
import { runTurnsOf, runUsageOf } from './run-usage.js';
import { showMessagesCommand } from './show-messages.js';

/** What an actor of a waiting run waits for. */
type WaitingFor = { kind: 'approval'; tool: string; callId: string } | { kind: 'question'; question: string };

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
  /** Print one actor's conversation instead (`true`: the entry's); see showMessagesCommand. */
  messages?: true | string;
  /** One JSON object instead of text (with `messages`: one message per line). */
  json?: boolean;
}

/**
 * `troupe show <runId>`: the run's record and its actor tree as its event log tells it, each
 * actor with its state, turns, tokens and cost, the run's totals, and what it waits for. With `json`, the same
 * as one object: `{ run, actors: [{ path, state, turns, usage, stopReason?, placement?, waiting? }],
 * usage, turns }`, `waiting` being `{ kind: 'approval', tool, callId }` or `{ kind: 'question', question }`.
 * With `messages`, an actor's conversation instead.
 */
export async function showCommand(options: ShowOptions, io: CliIo): Promise<ExitCode> {
  const { store } = options;
  const runId = parseRunId(options.runId);
  const run = await store.getRun(runId);
  if (run === undefined) {
    io.stderr(`troupe: no run ${options.runId} in ${options.where} (troupe runs${options.flags} lists them)\n`);
    return ExitCode.BadInput;
  }
  if (options.messages !== undefined) {
    return showMessagesCommand(
      { run, store, ...(options.messages === true ? {} : { path: options.messages }), ...(options.json === true ? { json: true } : {}) },
      io,
    );
  }
  const tree = new ActorTree();
  const waiting = new Map<string, WaitingFor>();
  const events = await store.readEvents(runId);
  for (const event of events) {
    tree.apply(event);
    if (event.type === 'permission_request') waiting.set(event.agentPath, { kind: 'approval', tool: event.toolName, callId: event.toolCallId });
    else if (event.type === 'question') waiting.set(event.agentPath, { kind: 'question', question: event.question });
    else if (event.type === 'state' && event.state !== 'waiting_user') waiting.delete(event.agentPath);
  }
  const placements = await options.placements?.(runId);
  for (const path of placements?.keys() ?? []) tree.track(path);
  const showWaiting = run.status === 'waiting' || placements !== undefined;
  // The same total `troupe runs` shows.
  const usage = await runUsageOf(store, run, events);
  const turns = await runTurnsOf(store, run, events);
  if (options.json === true) {
    const actors = tree.rows.map(({ path, state, turns, usage, stopReason }) => {
      const placement = placements?.get(path);
      const waitingFor = showWaiting ? waiting.get(path) : undefined;
      return {
        path,
        state,
        turns,
        usage,
        ...(stopReason === undefined ? {} : { stopReason }),
        ...(placement === undefined ? {} : { placement }),
        ...(waitingFor === undefined ? {} : { waiting: waitingFor }),
      };
    });
    io.stdout(`${JSON.stringify({ run, actors, usage, turns })}\n`);
    return ExitCode.Ok;
  }
  io.stdout(`run ${run.id} · ${run.status} · entry ${run.entry} · started ${new Date(run.startedAt).toISOString()}\n`);
  io.stdout(`input: ${run.input}\n`);
  for (const row of tree.rows) {
    const placement = placements?.get(row.path);
    io.stdout(`${formatRow(row)}${placement === undefined ? '' : ` · ${placement}`}\n`);
  }
  io.stdout(`total: tokens ${usage.totalTokens} · ${formatCost(usage)} · turns ${turns}\n`);
  if (showWaiting) {
    for (const [path, what] of waiting)
      io.stdout(`waiting: ${path} for ${what.kind === 'approval' ? `approval of ${what.tool} (call ${what.callId})` : `an answer to "${what.question}"`}\n`);
  }
  if (run.error !== undefined) io.stdout(`error: ${run.error.message} [${run.error.code}]\n`);
  if (run.status === 'interrupted')
    io.stdout(`interrupted: the process running it was killed; troupe resume ${run.id}${options.flags} goes on from its last checkpoints\n`);
  return ExitCode.Ok;
}
