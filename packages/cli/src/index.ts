export { runCli } from './cli.js';
export { jsonRenderer, textRenderer } from './commands/event-renderer.js';
export { runCommand } from './commands/run.js';
export { ExitCode, exitCodeOf } from './exit-code.js';

export type { CliIo, Writer } from './cli-io.js';
export type { EventRenderer } from './commands/event-renderer.js';
export type { RunCommandOptions } from './commands/run.js';
export type { OtelFlags } from './telemetry/otel-config.js';
