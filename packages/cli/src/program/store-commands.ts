import type { Command } from 'commander';
import { DEFAULT_RUNS_DIR } from '@troupe/runtime';
import { runsCommand } from '../commands/runs.js';
import { showCommand } from '../commands/show.js';
import { addNatsOptions, type NatsFlags } from '../nats/nats-flags.js';
import { withRunStore } from '../nats/with-run-store.js';
import type { CommandContext } from './command-context.js';

/** The commands that read recorded runs: `runs` and `show`. */
export function registerStoreCommands(program: Command, { io, exit }: CommandContext): void {
  addNatsOptions(
    program
      .command('runs')
      .description('list the recorded runs: status, entry, start, duration, tokens, cost')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
      .option('--json', 'one JSON record per line'),
  ).action(async (_flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { runsDir: string; json?: boolean }>();
    exit(await withRunStore(flags, io, 'runs', (store, where, { flags: again }) => runsCommand({ store, where, flags: again, ...(flags.json === true ? { json: true } : {}) }, io)));
  });

  addNatsOptions(
    program
      .command('show')
      .description("a run's actor tree: each actor's state, turns, tokens and cost, and what it waits for")
      .argument('<runId>', 'the run (troupe runs lists them)')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR),
  ).action(async (runId: string, _flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & { runsDir: string }>();
    exit(await withRunStore(flags, io, 'show', (store, where, extra) => showCommand({ runId, store, where, ...extra }, io)));
  });
}
