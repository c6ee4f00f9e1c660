import type { Command } from 'commander';
import { DEFAULT_RUNS_DIR, type LogLevel } from '@troupe/runtime';
import type { Answer } from '../commands/answer.js';
import type { ResumeOptions } from '../commands/resume.js';
import { ExitCode } from '../exit-code.js';
import { addNatsOptions, natsTargetOf, type NatsFlags } from '../nats/nats-flags.js';
import { withNatsSession } from '../nats/nats-session.js';
import type { OtelFlags } from '../telemetry/otel-config.js';
import { logLevelOption, type CommandContext } from './command-context.js';
import { addOtelOptions, otelFlagsOf } from './otel-options.js';

interface RunFlags extends NatsFlags, OtelFlags {
  input?: string;
  inputFile?: string;
  entry?: string;
  model?: string;
  json?: boolean;
  logLevel: LogLevel;
  runsDir: string;
  remoteAll?: boolean;
}

interface AnswerFlags extends NatsFlags, OtelFlags {
  runsDir: string;
  json?: boolean;
  logLevel: LogLevel;
}

const RUN_EXAMPLES = `
The input comes from exactly one place:
  troupe run graph.yaml "What time is it?"
  troupe run graph.yaml --input-file question.md
  echo "What time is it?" | troupe run graph.yaml
`;

/** `troupe run`, and the commands that go on with a recorded run: `reply`, `approve`, `resume`. */
export function registerRunCommands(program: Command, { io, exit }: CommandContext): void {
  addOtelOptions(
    addNatsOptions(
      program
        .command('run')
        .description("run a graph file's entry agent on one input, streaming its answer")
        .argument('<file>', 'the graph file (YAML)')
        .argument('[input]', 'the user message (or --input, --input-file, or standard input)')
        .option('-i, --input <text>', 'the user message')
        .option('--input-file <path>', 'read the user message from a text file')
        .option('-e, --entry <agent>', "the agent to run instead of the file's entry")
        .option('-m, --model <provider:model>', 'run the entry agent on this model instead of its own (e.g. anthropic:claude-sonnet-4-5)')
        .option('--json', 'print every event as one JSON line instead of the text')
        .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
        .addOption(logLevelOption('warn')),
    ),
  )
    .option('--remote-all', 'with --nats: run every agent on workers, the entry included')
    .addHelpText('after', RUN_EXAMPLES)
    .action(async (file: string, argument: string | undefined, _flags: unknown, command: Command) => {
      const flags = command.opts<RunFlags>();
      const nats = natsTargetOf(flags, io.env);
      if (flags.remoteAll === true && nats === undefined) {
        io.stderr('troupe run: --remote-all needs --nats <urls> (or TROUPE_NATS_URL)\n');
        exit(ExitCode.BadInput);
        return;
      }
      const { resolveRunInput } = await import('../commands/run-input.js');
      const input = await resolveRunInput({ argument, input: flags.input, inputFile: flags.inputFile }, io);
      if (!('input' in input)) {
        if ('problem' in input) io.stderr(`troupe run: ${input.problem}\n`);
        exit('problem' in input ? ExitCode.BadInput : ExitCode.Interrupted);
        return;
      }
      const { runCommand } = await import('../commands/run.js');
      exit(
        await runCommand(
          {
            file,
            input: input.input,
            logLevel: flags.logLevel,
            runsDir: flags.runsDir,
            ...(flags.entry === undefined ? {} : { entry: flags.entry }),
            ...(flags.model === undefined ? {} : { model: flags.model }),
            ...(flags.json === true ? { json: true } : {}),
            ...(nats === undefined ? {} : { nats }),
            ...(flags.remoteAll === true ? { remoteAll: true } : {}),
            telemetry: otelFlagsOf(flags),
          },
          io,
        ),
      );
    });

  const answerOptions = (command: Command): Command =>
    addNatsOptions(
      addOtelOptions(
        command
          .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
          .option('--json', 'print every event as one JSON line')
          .addOption(logLevelOption('warn')),
      ),
    );
  const answerWith = async (runId: string, answer: Answer, flags: AnswerFlags): Promise<ExitCode> => {
    const common = { runId, answer, logLevel: flags.logLevel, ...(flags.json === true ? { json: true } : {}) };
    return natsTargetOf(flags, io.env) === undefined
      ? (await import('../commands/answer.js')).answerCommand({ ...common, runsDir: flags.runsDir, telemetry: otelFlagsOf(flags) }, io)
      : (await import('../commands/nats-answer.js')).natsAnswerCommand({ ...common, nats: flags }, io);
  };
  answerOptions(
    program
      .command('reply')
      .description('answer the question a waiting run asks, then go on with it (from any process)')
      .argument('<runId>', 'the waiting run')
      .argument('<pathOrAnswer>', "the asking actor's path, or the answer when only one actor asks")
      .argument('[answer]', 'the answer'),
  ).action(async (runId: string, pathOrAnswer: string, answer: string | undefined, _flags: unknown, command: Command) => {
    const reply = answer === undefined ? { kind: 'reply' as const, answer: pathOrAnswer } : { kind: 'reply' as const, answer, path: pathOrAnswer };
    exit(await answerWith(runId, reply, command.opts<AnswerFlags>()));
  });
  answerOptions(
    program
      .command('approve')
      .description('decide the permission request a waiting run asks, then go on with it (from any process)')
      .argument('<runId>', 'the waiting run')
      .argument('<callId>', 'the tool call to decide')
      .argument('<decision>', 'allow_once, allow_always, deny_interrupt or deny_never'),
  ).action(async (runId: string, callId: string, decision: string, _flags: unknown, command: Command) => {
    exit(await answerWith(runId, { kind: 'approve', callId, decision }, command.opts<AnswerFlags>()));
  });

  addOtelOptions(
    addNatsOptions(
      program
        .command('resume')
        .description('go on with a run whose troupe run process is gone (killed, or its machine restarted), from its last checkpoints')
        .argument('<runId>', 'the run (troupe runs lists them)')
        .option('--runs-dir <dir>', 'where runs are recorded', DEFAULT_RUNS_DIR)
        .option('--json', 'print every event as one JSON line')
        .addOption(logLevelOption('warn')),
    ),
  ).action(async (runId: string, _flags: unknown, command: Command) => {
    const flags = command.opts<NatsFlags & OtelFlags & { runsDir: string; json?: boolean; logLevel: LogLevel }>();
    const { resumeCommand } = await import('../commands/resume.js');
    const resume = (at: ResumeOptions['at']): Promise<ExitCode> =>
      resumeCommand({ runId, at, logLevel: flags.logLevel, telemetry: otelFlagsOf(flags), ...(flags.json === true ? { json: true } : {}) }, io);
    exit(
      natsTargetOf(flags, io.env) === undefined
        ? await resume({ runsDir: flags.runsDir })
        : await withNatsSession(flags, io, 'resume', (session) => resume({ session })),
    );
  });
}
