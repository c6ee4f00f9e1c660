import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_RUNS_DIR, isRunStatus, RUN_STATUSES, type RunStatus } from '@troupe/runtime';
import { parseDuration } from '../commands/parse-duration.js';
import { addNatsOptions, type NatsFlags } from '../nats/nats-flags.js';
import { withRunStore } from '../nats/with-run-store.js';
import type { CommandContext } from './command-context.js';

/** `--status done,failed`: run statuses, comma-separated. */
function statuses(value: string): RunStatus[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isRunStatus(name));
  if (names.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`expected one or more of ${RUN_STATUSES.join(', ')}, comma-separated`);
  return names.filter(isRunStatus);
}

/** `--older-than 7d`: a duration. */
function duration(value: string): { text: string; ms: number } {
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) throw new InvalidArgumentError('expected a duration such as 7d, 12h, 30m or 1d12h (units s, m, h, d, w)');
  return { text: value.trim(), ms };
}

/** The commands that read (and prune) recorded runs: `runs`, `runs prune` and `show`. */
export function registerStoreCommands(program: Command, { io, exit }: CommandContext): void {
  const runs = addNatsOptions(
    program
      .command('runs')
      .description('list the recorded runs: status, entry, start, duration, tokens, cost')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
      .option('--status <statuses>', `only runs with these statuses, comma-separated (${RUN_STATUSES.join(', ')})`, statuses)
      .option('--json', 'one JSON record per line')
      // `runs prune --runs-dir x`: options after the subcommand are the subcommand's.
      .enablePositionalOptions(),
  ).action(async (_flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { runsDir: string; status?: RunStatus[]; json?: boolean }>();
    const filter = { ...(flags.status === undefined ? {} : { status: flags.status }), ...(flags.json === true ? { json: true } : {}) };
    const { runsCommand } = await import('../commands/runs.js');
    exit(await withRunStore(flags, io, 'runs', (store, where, { flags: again }) => runsCommand({ store, where, flags: again, ...filter }, io)));
  });

  addNatsOptions(
    runs
      .command('prune')
      .description('delete the runs that ended (done, failed, aborted) longer ago than a duration; never a running, waiting or interrupted one')
      .requiredOption('--older-than <duration>', 'how long ago they ended: 7d, 12h, 30m, 1d12h (units s, m, h, d, w)', duration)
      .option('--dry-run', 'say what would be deleted, delete nothing')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR),
  ).action(async (_flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { runsDir: string; olderThan: { text: string; ms: number }; dryRun?: boolean }>();
    const { olderThan } = flags;
    const { pruneCommand } = await import('../commands/runs-prune.js');
    exit(
      await withRunStore(flags, io, 'runs prune', (store, where) =>
        pruneCommand({ store, where, olderThanMs: olderThan.ms, olderThan: olderThan.text, ...(flags.dryRun === true ? { dryRun: true } : {}) }, io),
      ),
    );
  });

  addNatsOptions(
    program
      .command('show')
      .description("a run's actor tree: each actor's state, turns, tokens and cost, and what it waits for; or an actor's conversation")
      .argument('<runId>', 'the run (troupe runs lists them)')
      .option('--messages [path]', "print the conversation of the actor at path (default: the run's entry): messages, thinking, tool calls and results")
      .option('--json', 'one JSON object (with --messages: one message per line)')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR),
  ).action(async (runId: string, _flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { runsDir: string; messages?: true | string; json?: boolean }>();
    const view = { ...(flags.messages === undefined ? {} : { messages: flags.messages }), ...(flags.json === true ? { json: true } : {}) };
    const { showCommand } = await import('../commands/show.js');
    exit(await withRunStore(flags, io, 'show', (store, where, extra) => showCommand({ runId, store, where, ...extra, ...view }, io)));
  });
}
