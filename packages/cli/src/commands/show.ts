import { parseRunId } from '@troupe/core';
import { createFileRunStore } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { ActorTree, formatCost, formatRow } from '../view/actor-tree.js';

/**
 * `troupe show <runId>`: the run's record and its actor tree as its event log tells it, each
 * actor with its state, turns, tokens and cost, and what the run waits for.
 */
export async function showCommand(options: { runsDir: string; runId: string }, io: CliIo): Promise<ExitCode> {
  const store = createFileRunStore(options.runsDir);
  const runId = parseRunId(options.runId);
  const run = await store.getRun(runId);
  if (run === undefined) {
    io.stderr(`troupe: no run ${options.runId} in ${options.runsDir} (troupe runs lists them)\n`);
    return ExitCode.BadInput;
  }
  const tree = new ActorTree();
  const waiting = new Map<string, string>();
  for (const event of await store.readEvents(runId)) {
    tree.apply(event);
    if (event.type === 'permission_request') waiting.set(event.agentPath, `approval of ${event.toolName} (call ${event.toolCallId})`);
    else if (event.type === 'question') waiting.set(event.agentPath, `an answer to "${event.question}"`);
    else if (event.type === 'state' && event.state !== 'waiting_user') waiting.delete(event.agentPath);
  }
  io.stdout(`run ${run.id} · ${run.status} · entry ${run.entry} · started ${new Date(run.startedAt).toISOString()}\n`);
  io.stdout(`input: ${run.input}\n`);
  for (const row of tree.rows) io.stdout(`${formatRow(row)}\n`);
  io.stdout(`total: tokens ${tree.usage.totalTokens} · ${formatCost(tree.usage)}\n`);
  if (run.status === 'waiting') {
    for (const [path, what] of waiting) io.stdout(`waiting: ${path} for ${what}\n`);
  }
  if (run.error !== undefined) io.stdout(`error: ${run.error.message} [${run.error.code}]\n`);
  return ExitCode.Ok;
}
