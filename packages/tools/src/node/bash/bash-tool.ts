import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, type Tool, type ToolResult } from '@troupe/core';
import type { ToolOptions } from '../../tool-factory.js';
import { parseToolSettings, type ToolSettingsSpec } from '../../tool-settings.js';
import { WORKSPACE_SETTING, workspaceOf } from '../node-tool-options.js';
import { failed } from '../tool-failure.js';
import { DEFAULT_DENY_RULES, deniedBy, denyRulesOf } from './deny-list.js';
import { runInProcessGroup, type ProcessGroupOutcome } from './process-group.js';
import { DEFAULT_SANDBOX_POLICY, type SandboxPolicy } from '../../sandbox-policy.js';
import { sandboxedArgv } from '../sandbox/sandboxed-argv.js';
import { sandboxHint } from '../sandbox/sandbox-hint.js';
import { toolEnvironment } from '../tool-environment.js';

/** Settings of `bash`. */
export const BASH_SETTINGS = {
  ...WORKSPACE_SETTING,
  timeoutMs: { kind: 'positiveInteger', description: 'How long a command may run before its process group is killed (default 120000).' },
  maxOutputBytes: {
    kind: 'positiveInteger',
    description: 'Bytes kept of stdout and of stderr each, half from the start and half from the end (default 30000).',
  },
  deny: { kind: 'regexList', description: 'More command patterns (regular expressions) to refuse, besides the default deny list.' },
  defaultDeny: { kind: 'boolean', description: 'Whether the default deny list applies (default true).' },
  shell: { kind: 'string', description: 'The shell that runs commands with -c (default /bin/bash, else /bin/sh).' },
  env: {
    kind: 'stringList',
    description:
      'Variables passed to commands although they look like credentials (TROUPE_*, *_API_KEY, *_TOKEN, *_SECRET, passwords), which are left out otherwise.',
  },
} as const satisfies ToolSettingsSpec;

/** Arguments of bash. */
export interface BashArgs extends Record<string, unknown> {
  command: string;
}

const KILL_GRACE_MS = 2000;

/**
 * `bash`: runs a shell command in the workspace directory and returns its output and exit code.
 * The command runs in its own process group; a timeout (default 120 s) or an abort kills the
 * whole group. stdout and stderr are each cut to `maxOutputBytes`, keeping the start and the end
 * with a marker. Commands matching the deny list (rm -rf /, mkfs, dd onto a device, fork bombs,
 * shutdown, curl | sh…) are refused before anything is started. Each group is reported to
 * `options.processGroups` while it runs. Not read-only.
 */
export function createBashTool(options: ToolOptions = {}): Tool {
  const settings = parseToolSettings('bash', BASH_SETTINGS, options.settings);
  const workspace = workspaceOf(options, settings.workspace);
  const timeoutMs = settings.timeoutMs ?? 120_000;
  const maxOutputBytes = settings.maxOutputBytes ?? 30_000;
  const rules = [...(settings.defaultDeny === false ? [] : DEFAULT_DENY_RULES), ...denyRulesOf(settings.deny ?? [])];
  const shell = settings.shell ?? (existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh');
  const tracker = options.processGroups;
  const sandbox = options.sandbox ?? DEFAULT_SANDBOX_POLICY;
  const env = toolEnvironment(process.env, settings.env ?? [], { PAGER: 'cat', GIT_PAGER: 'cat', TERM: 'dumb' });
  return defineTool<BashArgs>({
    name: 'bash',
    label: 'Bash',
    description: `Run a shell command in the workspace directory and get its stdout, stderr and exit code. Commands time out after ${Math.round(timeoutMs / 1000)} s. Long output is cut in the middle. Do not start interactive programs.`,
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', minLength: 1, description: 'The command line, run with `bash -c`.' } },
      required: ['command'],
      additionalProperties: false,
    },
    readOnly: false,
    async execute(args, ctx): Promise<ToolResult> {
      const denied = deniedBy(args.command, rules);
      if (denied !== undefined) return failed(`bash: refused to run this command: ${denied.reason} (deny list)`, { denied: denied.reason });
      if (ctx.signal.aborted) return failed('bash: aborted before the command started');
      const cwd = await workspace.realRoot().catch(() => undefined);
      if (cwd === undefined) return failed(`bash: the workspace ${workspace.root} does not exist`);
      // A sandboxed command writes its temporary files in a directory of its own (TMPDIR), removed after it.
      const tmp = sandbox.mode === 'off' ? undefined : await mkdtemp(join(tmpdir(), 'troupe-bash-'));
      try {
        const argv = sandboxedArgv(sandbox, { workspace: cwd, cwd, ...(tmp === undefined ? {} : { tmp }) }, [shell, '-c', args.command]);
        if ('refused' in argv) return failed(`bash: ${argv.refused}`, { sandboxed: false });
        const outcome = await runInProcessGroup({
          file: argv.file,
          args: argv.args,
          cwd,
          timeoutMs,
          maxOutputBytes,
          signal: ctx.signal,
          killGraceMs: KILL_GRACE_MS,
          ...(tracker === undefined ? {} : { track: (pgid: number) => tracker.started(pgid) }),
          env: argv.sandboxed && tmp !== undefined ? { ...env, TMPDIR: tmp, TMP: tmp, TEMP: tmp } : env,
        });
        return resultOf(outcome, timeoutMs, argv.sandboxed ? sandbox : undefined);
      } finally {
        if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
      }
    },
  });
}

/** The tool's result for a finished command; `sandbox`: the policy it ran under, when it ran in a sandbox. */
function resultOf(outcome: ProcessGroupOutcome, timeoutMs: number, sandbox: SandboxPolicy | undefined): ToolResult {
  const details = {
    sandboxed: sandbox !== undefined,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    aborted: outcome.aborted,
    durationMs: outcome.durationMs,
    stdoutBytes: outcome.stdout.total,
    stderrBytes: outcome.stderr.total,
  };
  if (outcome.spawnError !== undefined) return failed(`bash: could not start the shell: ${outcome.spawnError.message}`, details);
  const stdout = outcome.stdout.text();
  const stderr = outcome.stderr.text();
  const parts: string[] = [];
  if (stdout.text !== '') parts.push(stdout.text.replace(/\n$/, ''));
  if (stderr.text !== '') parts.push(`[stderr]\n${stderr.text.replace(/\n$/, '')}`);
  if (parts.length === 0) parts.push('(no output)');
  if (outcome.timedOut) parts.push(`[timed out after ${formatSeconds(timeoutMs)} s; the command and its child processes were killed]`);
  else if (outcome.aborted) parts.push('[aborted; the command and its child processes were killed]');
  else if (outcome.exitCode !== 0) parts.push(outcome.exitCode === null ? `[killed by ${outcome.signal ?? 'a signal'}]` : `[exit code ${outcome.exitCode}]`);
  const hint = sandbox !== undefined && outcome.exitCode !== 0 ? sandboxHint(stderr.text, sandbox) : undefined;
  if (hint !== undefined) parts.push(`[${hint}]`);
  const isError = outcome.timedOut || outcome.aborted || outcome.exitCode !== 0;
  const text = parts.join('\n');
  return isError ? { content: text, isError: true, details } : { content: text, details };
}

/** `ms` in seconds for a person: whole seconds when whole, else one decimal (300 → "0.3"). */
function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? String(ms / 1000) : (ms / 1000).toFixed(1);
}
