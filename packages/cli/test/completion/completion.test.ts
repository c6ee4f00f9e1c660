/**
 * Proves `troupe completion bash|zsh|fish` prints a script each shell loads without error, built
 * from the program's own commands (every command and subcommand is in it), that completes
 * commands, subcommands, options, fixed option values, graph files (`*.yaml`, `*.yml` and
 * directories; no other files) where a command takes one and any file where an option wants a
 * path — checked by loading each script into the real shell and asking it to complete. zsh and
 * fish are checked when installed (`.ci/run` installs them). `--help` says how to install it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { captureIo } from '../run-cli.js';

const CAPTURE_ZSH = fileURLToPath(new URL('./zsh-capture.zsh', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'troupe-completion-'));
for (const name of ['team.yaml', 'solo.yml', 'notes.txt']) writeFileSync(join(dir, name), '');
mkdirSync(join(dir, 'graphs'));

const has = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;

async function script(shell: string): Promise<string> {
  const io = captureIo();
  expect(await runCli(['completion', shell], io)).toBe(0);
  const file = join(dir, `troupe.${shell}`);
  writeFileSync(file, io.stdoutText());
  return file;
}

function run(command: string, args: readonly string[]): string {
  const result = spawnSync(command, args, { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

/** The sorted, distinct words a completion produced. */
const words = (output: string): string[] =>
  [
    ...new Set(
      output
        .split('\n')
        .map((line) => line.split('\t')[0]?.trim() ?? '')
        .filter((word) => word !== ''),
    ),
  ].sort();

/** The cases every shell agrees on: a command line ending where Tab is pressed, and what it offers. */
const COMMON: readonly (readonly [string, string[]])[] = [
  ['troupe gr', ['graph']],
  ['troupe graph ', ['show', 'validate']],
  ['troupe runs ', ['prune']],
  ['troupe runs prune --d', ['--dry-run']],
  ['troupe run --log-level ', ['debug', 'error', 'fatal', 'info', 'silent', 'trace', 'warn']],
  ['troupe run --inp', ['--input', '--input-file']],
  ['troupe show run_x --mes', ['--messages']],
  ['troupe completion ', ['bash', 'fish', 'zsh']],
];

describe('troupe completion', () => {
  it('says how to install the script for each shell', async () => {
    const io = captureIo();
    expect(await runCli(['completion', '--help'], io)).toBe(0);
    for (const line of [
      'troupe completion bash > ~/.local/share/bash-completion/completions/troupe',
      'troupe completion zsh > ~/.zfunc/_troupe',
      'troupe completion fish > ~/.config/fish/completions/troupe.fish',
    ]) {
      expect(io.stdoutText()).toContain(line);
    }
  });

  it('refuses a shell it has no script for', async () => {
    const io = captureIo();
    expect(await runCli(['completion', 'tcsh'], io)).toBe(2);
    expect(io.stderrText()).toContain("value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.");
  });

  it('names every command and subcommand of the program', async () => {
    const io = captureIo();
    await runCli(['completion', 'bash'], io);
    for (const command of [
      'run',
      'chat',
      'reply',
      'approve',
      'resume',
      'steer',
      'init',
      'runs',
      'prune',
      'show',
      'worker',
      'workers',
      'watch',
      'abort',
      'models',
      'sandbox',
      'check',
      'mcp',
      'tools',
      'graph',
      'validate',
      'completion',
      'dashboard',
    ]) {
      expect(io.stdoutText()).toMatch(new RegExp(`[' ]${command}[' ]`));
    }
  });
});

describe('the bash script', () => {
  const complete = async (line: string): Promise<string[]> => {
    const file = await script('bash');
    const typed = line.split(' ');
    const harness = `source ${JSON.stringify(file)}; COMP_WORDS=(${typed.map((word) => JSON.stringify(word)).join(' ')}); COMP_CWORD=${typed.length - 1}; _troupe; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return words(run('bash', ['-c', harness]));
  };

  it('loads without error', async () => {
    run('bash', ['-n', await script('bash')]);
  });

  it.each(COMMON)('completes %j', async (line, expected) => {
    expect(await complete(line)).toEqual(expected);
  });

  it.each([
    ['troupe run ', ['graphs', 'solo.yml', 'team.yaml']],
    ['troupe graph validate team.yaml ', ['graphs', 'solo.yml', 'team.yaml']],
    ['troupe run team.yaml ', []],
    ['troupe run --input-file ', ['graphs', 'notes.txt', 'solo.yml', 'team.yaml', 'troupe.bash']],
    ['troupe runs --runs-dir ', ['graphs']],
    ['troupe runs --runs-dir graphs pr', ['prune']],
  ])('completes files in %j', async (line, expected) => {
    expect(await complete(line)).toEqual(expected);
  });
});

describe.runIf(has('zsh'))('the zsh script', () => {
  it('loads without error', async () => {
    run('zsh', ['-n', await script('zsh')]);
  });

  it.each([
    ...COMMON,
    [
      'troupe ',
      [
        'abort',
        'approve',
        'chat',
        'completion',
        'dashboard',
        'graph',
        'init',
        'mcp',
        'models',
        'reply',
        'resume',
        'run',
        'runs',
        'sandbox',
        'show',
        'steer',
        'watch',
        'worker',
        'workers',
      ],
    ] as const,
  ])('completes %j', async (line, expected) => {
    expect(words(run('zsh', ['-f', CAPTURE_ZSH, await script('zsh'), line]))).toEqual(expected);
  });
});

describe.runIf(has('fish'))('the fish script', () => {
  const complete = async (line: string): Promise<string[]> =>
    words(run('fish', ['-c', `source ${JSON.stringify(await script('fish'))}; complete -C ${JSON.stringify(line)}`]));

  it('loads without error', async () => {
    run('fish', ['-n', await script('fish')]);
  });

  it.each(COMMON)('completes %j', async (line, expected) => {
    expect(await complete(line)).toEqual(expected);
  });

  it.each([
    ['troupe run ', ['graphs/', 'solo.yml', 'team.yaml']],
    ['troupe run team.yaml ', []],
    ['troupe graph validate team.yaml ', ['graphs/', 'solo.yml', 'team.yaml']],
    ['troupe runs --runs-dir graphs pr', ['prune']],
  ])('completes files in %j', async (line, expected) => {
    expect(await complete(line)).toEqual(expected);
  });
});
