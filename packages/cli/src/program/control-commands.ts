import type { Command } from 'commander';
import { DEFAULT_RUNS_DIR } from '@troupe/runtime';
import { addNatsOptions, natsTargetOf, type NatsFlags } from '../nats/nats-flags.js';
import type { CommandContext } from './command-context.js';

type ControlFlags = NatsFlags & { runsDir: string; followUp?: boolean };

/** The commands that reach a run while it runs, in this machine's runs directory or on NATS: `abort`, `steer`. */
export function registerControlCommands(program: Command, { io, exit }: CommandContext): void {
  addNatsOptions(
    program
      .command('abort')
      .description('abort a run and wait until it has ended (every actor, wherever it runs); a run no process runs is marked aborted')
      .argument('<runId>', 'the run (troupe runs lists them)')
      .argument('[path]', "abort only this actor and the actors it started; its parent takes the abort as its call's result and goes on")
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR),
  ).action(async (runId: string, path: string | undefined, _flags: unknown, command: Command) => {
    const flags = command.opts<ControlFlags>();
    const target = path === undefined ? { runId } : { runId, path };
    exit(
      natsTargetOf(flags, io.env) === undefined
        ? await (await import('../commands/local-abort.js')).localAbortCommand({ ...target, runsDir: flags.runsDir }, io)
        : await (await import('../commands/abort.js')).abortCommand({ ...target, nats: flags }, io),
    );
  });

  addNatsOptions(
    program
      .command('steer')
      .description("send a message to a running actor: it enters the actor's conversation before its next model call")
      .argument('<runId>', 'the running run')
      .argument('<pathOrMessage>', "the actor's path (default: the entry), or the message")
      .argument('[message]', 'the message')
      .option('--follow-up', 'queue the message as a follow-up instead: the actor takes it once it would otherwise end, and goes on')
      .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR),
  ).action(async (runId: string, pathOrMessage: string, message: string | undefined, _flags: unknown, command: Command) => {
    const flags = command.opts<ControlFlags>();
    const target = {
      ...(message === undefined ? { runId, message: pathOrMessage } : { runId, message, path: pathOrMessage }),
      followUp: flags.followUp === true,
    };
    const { natsSteerCommand, steerCommand } = await import('../commands/steer.js');
    exit(
      natsTargetOf(flags, io.env) === undefined
        ? await steerCommand({ ...target, runsDir: flags.runsDir }, io)
        : await natsSteerCommand({ ...target, nats: flags }, io),
    );
  });
}
