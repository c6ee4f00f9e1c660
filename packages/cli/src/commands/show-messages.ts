import type { RunRecord, RunStore } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { formatConversation } from '../view/conversation.js';

/** What `troupe show <run> --messages [path]` reads. */
export interface ShowMessagesOptions {
  run: RunRecord;
  store: RunStore;
  /** The actor whose conversation to print; default the run's entry. */
  path?: string;
  /** One JSON message per line instead of text. */
  json?: boolean;
}

/**
 * `troupe show <run> --messages [path]`: the conversation of one actor of the run (the entry's by
 * default) as of its latest checkpoint — user messages, the assistant's text, thinking collapsed
 * to a line, tool calls with their arguments, tool results cut to their first lines — or, with
 * `json`, its messages as stored, one per line. An actor with no checkpoint (a pipeline's own
 * path, a typo) exits 2, naming the actors that have one.
 */
export async function showMessagesCommand(options: ShowMessagesOptions, io: CliIo): Promise<ExitCode> {
  const { run } = options;
  const path = options.path ?? run.entry;
  const snapshots = await options.store.loadSnapshots(run.id);
  const snapshot = snapshots.find((candidate) => candidate.agentPath === path);
  if (snapshot === undefined) {
    const paths = snapshots.map((candidate) => candidate.agentPath).sort();
    const which = options.path === undefined ? `the entry ${path} has no conversation of its own` : `no actor ${path} has a conversation`;
    const choose = paths.length === 0 ? 'no actor has one yet' : `give an actor's path with --messages <path>: ${paths.join(', ')}`;
    io.stderr(`troupe show: ${which} in run ${run.id}; ${choose}\n`);
    return ExitCode.BadInput;
  }
  const { messages } = snapshot.context;
  if (options.json === true) {
    for (const message of messages) io.stdout(`${JSON.stringify(message)}\n`);
    return ExitCode.Ok;
  }
  io.stdout(`run ${run.id} · ${path} · ${messages.length === 1 ? '1 message' : `${messages.length} messages`}\n\n`);
  io.stdout(formatConversation(messages));
  return ExitCode.Ok;
}
