/**
 * Proves where `troupe run` takes its input from: the argument after the file, `--input`,
 * `--input-file`, or standard input when none is given and it is not a terminal — exactly one of
 * them. Two sources, none on a terminal, an empty input and a binary or oversized input file are
 * refused in one line with exit 2, before anything runs; an unknown option is reported as unknown
 * with a suggestion (regression: issue 13, §4: `--inptu x` said `--input` was missing), and an
 * unknown `--entry` gets a suggestion. The real command reads piped standard input end to end.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { INPUT_MAX_BYTES } from '../../src/commands/run-input.js';
import { captureIo, fixturePath, type CapturedIo } from '../run-cli.js';
import { spawnTroupe } from '../spawn-troupe.js';

const RUNS = mkdtempSync(join(tmpdir(), 'troupe-input-'));
const FILES = mkdtempSync(join(tmpdir(), 'troupe-input-files-'));
const ECHO = fixturePath('echo.yaml');

/** Runs `troupe run echo.yaml …args --json` in process; `stdin` is what standard input holds (absent: a terminal). */
async function run(args: readonly string[], stdin?: Readable): Promise<{ code: number; io: CapturedIo; input?: string }> {
  const io: CapturedIo = { ...captureIo(), ...(stdin === undefined ? {} : { stdin }) };
  const code = await runCli(['run', '--runs-dir', RUNS, ECHO, ...args, '--json'], io);
  // The user message the run started with: the first message of its result.
  const end = io
    .stdoutText()
    .split('\n')
    .find((line) => line.startsWith('{"type":"agent_end"'));
  const input = end === undefined ? undefined : (JSON.parse(end) as { result: { messages: { content: unknown }[] } }).result.messages[0]?.content;
  return { code, io, ...(typeof input === 'string' ? { input } : {}) };
}

const piped = (text: string | Uint8Array): Readable => Object.assign(Readable.from([Buffer.from(text)]), { isTTY: false });
const terminal = (): Readable => Object.assign(Readable.from([]), { isTTY: true });

describe('the input of troupe run', () => {
  it('is the argument after the file', async () => {
    expect(await run(['Say ping'])).toMatchObject({ code: 0, input: 'Say ping' });
  });

  it('is the text of --input-file, without its final newline', async () => {
    const file = join(FILES, 'question.md');
    writeFileSync(file, 'First line.\nSecond line.\n\n');
    expect(await run(['--input-file', file])).toMatchObject({ code: 0, input: 'First line.\nSecond line.' });
  });

  it('is standard input when nothing else gives it and it is not a terminal', async () => {
    expect(await run([], piped('from a pipe\n'))).toMatchObject({ code: 0, input: 'from a pipe' });
  });

  it('does not read standard input when the argument gives the input', async () => {
    expect(await run(['Say ping'], piped('ignored'))).toMatchObject({ code: 0, input: 'Say ping' });
  });

  it.each([
    [
      'none on a terminal',
      [] as string[],
      terminal(),
      /^troupe run: no input: give it as an argument \(troupe run <file> "your question"\), with --input <text> or --input-file <path>, or on standard input/,
    ],
    ['none at all', [], undefined, /^troupe run: no input: /],
    ['an empty standard input', [], piped('\n'), /^troupe run: the input is empty: /],
    ['an empty argument', ['  '], undefined, /^troupe run: the input is empty: /],
    ['two sources', ['Say ping', '--input', 'again'], undefined, /^troupe run: the input is given twice \(an argument and --input\): give it once\n$/],
    [
      'three sources',
      ['x', '-i', 'y', '--input-file', 'z'],
      undefined,
      /^troupe run: the input is given three times \(an argument and --input and --input-file\): give it once\n$/,
    ],
    ['a missing input file', ['--input-file', 'no/such.txt'], undefined, /^troupe run: cannot read --input-file no\/such\.txt: file not found\n$/],
    ['binary standard input', [], piped(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 1])), /^troupe run: standard input is not a text file\n$/],
  ])('refuses %s in one line with exit 2', async (_name, args, stdin, message) => {
    const { code, io } = await run(args, stdin);
    expect(code).toBe(2);
    expect(io.stderrText()).toMatch(message);
    expect(io.stderrText().trimEnd().split('\n')).toHaveLength(1);
    expect(io.stdoutText()).toBe('');
  });

  it('refuses a binary or oversized input file in one line', async () => {
    const image = join(FILES, 'image.png');
    writeFileSync(image, Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    const binary = await run(['--input-file', image]);
    expect([binary.code, binary.io.stderrText()]).toEqual([2, `troupe run: ${image} is not a text file\n`]);
    const big = join(FILES, 'big.txt');
    writeFileSync(big, 'x'.repeat(INPUT_MAX_BYTES * 2));
    const huge = await run(['--input-file', big]);
    expect([huge.code, huge.io.stderrText()]).toEqual([2, `troupe run: ${big} is 8 MB; inputs are at most 4 MB\n`]);
  });

  it('stops reading a standard input past the limit', async () => {
    let pulled = 0;
    const endless = Object.assign(
      Readable.from(
        (function* () {
          for (;;) {
            pulled += 1;
            yield Buffer.alloc(1024 * 1024, 'x');
          }
        })(),
      ),
      { isTTY: false },
    );
    const { code, io } = await run([], endless);
    expect([code, io.stderrText()]).toEqual([2, 'troupe run: standard input is more than 4 MB; inputs are at most 4 MB\n']);
    expect(pulled).toBeLessThan(10);
  });
});

describe('troupe run usage errors', () => {
  it('reports an unknown option as unknown, with the option it looks like', async () => {
    const io = captureIo();
    expect(await runCli(['run', ECHO, '--inptu', 'x'], io)).toBe(2);
    expect(io.stderrText()).toMatch(/^error: unknown option '--inptu'\n\(Did you mean --input\?\)\n/);
  });

  it('suggests the agent an unknown --entry looks like', async () => {
    const io = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, ECHO, 'x', '--entry', 'asistant'], io)).toBe(2);
    expect(io.stderrText()).toBe('troupe run: unknown agent "asistant" (did you mean "assistant"?): available agents: assistant, other (from --entry)\n');
  });

  it('shows where the input may come from in its help', async () => {
    const io = captureIo();
    expect(await runCli(['run', '--help'], io)).toBe(0);
    expect(io.stdoutText()).toContain('Usage: troupe run [options] <file> [input]');
    expect(io.stdoutText()).toContain('echo "What time is it?" | troupe run graph.yaml');
  });
});

describe('troupe run (child process)', () => {
  it('reads its input from a pipe', async () => {
    const result = await spawnTroupe(['run', 'echo.yaml'], { stdin: 'Say ping\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Let me echo that.\nThe echo said ping.\n');
  });
});
