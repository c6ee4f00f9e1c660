import type { Command } from 'commander';
import type { OtelFlags } from '../telemetry/otel-config.js';

/** Adds `--otel <url>` and `--otel-content` to a command that runs agents. */
export function addOtelOptions(command: Command): Command {
  return command
    .option('--otel <url>', 'export traces and metrics over OTLP/HTTP to this collector (e.g. http://localhost:4318); wins over OTEL_* variables')
    .option('--otel-content', 'record prompts, replies and tool arguments and results on spans (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)');
}

/** The telemetry flags of parsed options, without the ones not given. */
export function otelFlagsOf(flags: OtelFlags): OtelFlags {
  return { ...(flags.otel === undefined ? {} : { otel: flags.otel }), ...(flags.otelContent === true ? { otelContent: true } : {}) };
}
