/**
 * Proves `troupe graph validate` and `troupe graph show` check graph files without API keys (a
 * missing key is a warning with its position, while `troupe run` still refuses the file), take
 * several files (each file's problems; exit 2 when any has one), and that `validate --json`
 * writes one object per file with problems and warnings as `{ file, line, col, message, hint }`.
 * A binary or oversized graph file is refused in one line by every command. Regression: issue
 * 13, §4.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { captureIo, fixturePath } from '../run-cli.js';

const FILES = mkdtempSync(join(tmpdir(), 'troupe-graph-'));
const RUNS = mkdtempSync(join(tmpdir(), 'troupe-graph-runs-'));
const ECHO = fixturePath('echo.yaml');
const NEEDS_KEY = fixturePath('needs-key.yaml');
const BROKEN = fixturePath('broken.yaml');
const KEY_WARNING = `${NEEDS_KEY}:4:17: warning: the openai provider needs an API key: set OPENAI_API_KEY, or give apiKey in the model's options (apiKey: \${OPENAI_API_KEY})`;

const image = join(FILES, 'image.png');
writeFileSync(image, Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
const huge = join(FILES, 'huge.yaml');
writeFileSync(huge, `# ${'x'.repeat(3 * 1024 * 1024)}\n`);

describe('troupe graph validate', () => {
  it('needs no API key: a missing one is a warning, and the file is valid', async () => {
    const io = captureIo({ env: {} });
    expect(await runCli(['graph', 'validate', NEEDS_KEY], io)).toBe(0);
    expect(io.stdoutText()).toBe(`${NEEDS_KEY} is valid (1 warning): 1 agent, 0 pipelines, entry writer\n`);
    expect(io.stderrText()).toBe(`${KEY_WARNING}\n`);
  });

  it('checks every file given and exits 2 when one has a problem', async () => {
    const io = captureIo();
    expect(await runCli(['graph', 'validate', ECHO, BROKEN, NEEDS_KEY], io)).toBe(2);
    expect(io.stdoutText()).toBe(
      `${ECHO} is valid: 2 agents, 0 pipelines, entry assistant\n${NEEDS_KEY} is valid (1 warning): 1 agent, 0 pipelines, entry writer\n`,
    );
    const stderr = io.stderrText().trimEnd().split('\n');
    expect(stderr).toHaveLength(5);
    expect(stderr.slice(0, 4).every((line) => line.startsWith(`${BROKEN}:`))).toBe(true);
    expect(stderr[4]).toBe(KEY_WARNING);
  });

  it('exits 0 when every file is valid', async () => {
    expect(await runCli(['graph', 'validate', ECHO, NEEDS_KEY], captureIo())).toBe(0);
  });

  it('writes one JSON object per file with --json', async () => {
    const io = captureIo();
    expect(await runCli(['graph', 'validate', '--json', NEEDS_KEY, BROKEN, image], io)).toBe(2);
    const [valid, broken, binary] = io
      .stdoutText()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(valid).toEqual({
      file: NEEDS_KEY,
      valid: true,
      entry: 'writer',
      agents: ['writer'],
      pipelines: [],
      problems: [],
      warnings: [{ file: NEEDS_KEY, line: 4, col: 17, message: expect.stringMatching(/^the openai provider needs an API key/) }],
    });
    expect(broken).toMatchObject({ file: BROKEN, valid: false, warnings: [] });
    expect(broken?.['problems']).toContainEqual({
      file: BROKEN,
      line: 7,
      col: 12,
      message: 'unknown model "demoo" in agents.assistant.model',
      hint: 'did you mean "demo"?',
    });
    expect(binary).toEqual({
      file: image,
      valid: false,
      problems: [{ file: image, line: 1, col: 1, message: 'cannot read the graph file: it is not a text file' }],
      warnings: [],
    });
    expect(io.stderrText()).toBe('');
  });
});

describe('troupe graph show', () => {
  it('draws a graph without its API key, and several graphs one after the other', async () => {
    const io = captureIo({ env: {} });
    expect(await runCli(['graph', 'show', NEEDS_KEY, ECHO], io)).toBe(0);
    expect(io.stdoutText()).toMatch(new RegExp(`^%% ${NEEDS_KEY}\\nflowchart TD\\n[^]*\\n\\n%% ${ECHO}\\nflowchart TD\\n`));
    expect(io.stderrText()).toBe(`${KEY_WARNING}\n`);
  });

  it('prints a single chart as it is', async () => {
    const io = captureIo();
    expect(await runCli(['graph', 'show', ECHO], io)).toBe(0);
    expect(io.stdoutText()).toMatch(/^flowchart TD\n/);
  });
});

describe('a binary or huge graph file', () => {
  it.each([
    ['graph validate', ['graph', 'validate', image], `troupe graph validate: ${image} is not a text file\n`],
    ['graph show', ['graph', 'show', huge], `troupe graph show: ${huge} is 3 MB; graph files are at most 1 MB\n`],
    ['run', ['run', '--runs-dir', RUNS, image, 'x'], `troupe run: ${image} is not a text file\n`],
    ['run (huge)', ['run', '--runs-dir', RUNS, huge, 'x'], `troupe run: ${huge} is 3 MB; graph files are at most 1 MB\n`],
  ])('is refused in one line by troupe %s', async (_name, args, message) => {
    const io = captureIo();
    expect(await runCli(args, io)).toBe(2);
    expect(io.stderrText()).toBe(message);
  });
});

describe('troupe run', () => {
  it('still needs the API key the graph validate only warned about', async () => {
    const io = captureIo({ env: {} });
    expect(await runCli(['run', '--runs-dir', RUNS, NEEDS_KEY, 'x'], io)).toBe(2);
    expect(io.stderrText()).toBe(`${KEY_WARNING.replace(': warning: ', ': ')}\n`);
  });
});
