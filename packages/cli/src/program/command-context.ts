import { InvalidArgumentError, Option } from 'commander';
import { LOG_LEVELS, type LogLevel } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import type { ExitCode } from '../exit-code.js';

/** What every command's registration gets: the process's io, and where it reports its exit code. */
export interface CommandContext {
  readonly io: CliIo;
  /** Sets the exit code `runCli` returns once the command's action has finished. */
  exit(code: ExitCode): void;
}

/** A commander parser for a whole number of at least `min`. */
export function integer(min: number): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min) throw new InvalidArgumentError(`expected a whole number of at least ${min}`);
    return number;
  };
}

/** `--log-level <level>` with the logger's levels as choices. */
export function logLevelOption(fallback: LogLevel, what = 'logs on standard error'): Option {
  return new Option('--log-level <level>', what).choices(LOG_LEVELS).default(fallback);
}
