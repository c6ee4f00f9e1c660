import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SECRET_PATHS } from '@troupe/tools';
import { sandboxSupport } from '@troupe/tools/node';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';

/**
 * `troupe sandbox check`: whether this machine can run tools in an OS sandbox (bubblewrap), what
 * the default policy confines, and which credential paths here it hides. Exits 0 when tools can be
 * sandboxed, 1 when not (`sandbox: auto` then runs them unconfined, `required` refuses).
 */
export function sandboxCheckCommand(options: { json?: boolean }, io: CliIo): ExitCode {
  const support = sandboxSupport();
  const hidden = DEFAULT_SECRET_PATHS.map((path) => ({ path, present: existsSync(join(homedir(), path.slice(2))) }));
  if (options.json === true) {
    io.stdout(`${JSON.stringify({ available: support.available, detail: support.detail, hidden })}\n`);
    return support.available ? ExitCode.Ok : ExitCode.RunFailed;
  }
  const lines = support.available
    ? [
        `sandbox: available (${support.detail})`,
        'bash, and stdio MCP servers that opt in, run in it: the file system read-only but for the workspace and a private $TMPDIR,',
        'no network unless a graph allows hosts (through a filtering proxy) or all, no capabilities, and nothing left running after the command.',
      ]
    : [
        `sandbox: unavailable: ${support.detail}`,
        'With sandbox: auto (the default) tools run unconfined, with a warning; with sandbox: required they refuse to run.',
      ];
  const present = hidden.filter((entry) => entry.present).map((entry) => entry.path);
  lines.push(`hidden from sandboxed tools, besides each graph's .env: ${DEFAULT_SECRET_PATHS.join(', ')}`);
  lines.push(present.length === 0 ? 'of these, none exists on this machine' : `of these, present here: ${present.join(', ')}`);
  io.stdout(`${lines.join('\n')}\n`);
  return support.available ? ExitCode.Ok : ExitCode.RunFailed;
}
