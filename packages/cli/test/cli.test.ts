/**
 * Proves `runCli` in-process, against fixture graph files: `run` streams the assistant's text
 * and prints the summary, `--json` prints one parseable event per line, `--entry` picks another
 * agent, a bad file or unknown agent exits 2 with every problem and runs nothing, a failed run
 * exits 1, a denied permission ends the run, the abort signal (Ctrl-C) ends it with 130, and
 * usage errors and help behave like a command line should.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { captureIo, fakeTerminal, fixturePath } from './run-cli.js';

const SUMMARY = /(^|\n)✓ done · 2 turns · 71 tokens · \$0\.0033 · \d+\.\d\ds · run run_\w+\n$/;
/** Runs go to a fresh directory per test file, not into the package. */
const RUNS = mkdtempSync(join(tmpdir(), 'troupe-cli-runs-'));

describe('troupe run', () => {
  it('streams the text and prints the summary', async () => {
    const io = captureIo();
    const code = await runCli(['run', '--runs-dir', RUNS, fixturePath('echo.yaml'), '--input', 'Say ping'], io);
    expect(code).toBe(0);
    expect(io.stdoutText()).toBe('Let me echo that.\nThe echo said ping.\n');
    expect(io.stderrText()).toMatch(SUMMARY);
    // Off a terminal the text is passed on a line at a time, so progress lines never split it.
    expect(io.out).toEqual(['Let me echo that.\n', 'The echo said ping.\n']);
    expect(io.stderrText()).toMatch(/^\[assistant\] thinking\n\[assistant\] tool_executing\n\[assistant\] tool echo\(ping\)\n\[assistant\] echo → ping\n/);
  });

  it('streams the text as it arrives when stdout is a terminal', async () => {
    const io = { ...captureIo(), stdoutIsTTY: true };
    expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('echo.yaml'), '--input', 'Say ping'], io)).toBe(0);
    expect(io.stdoutText()).toBe('Let me echo that.\nThe echo said ping.\n');
    expect(io.out.length).toBeGreaterThan(4);
  });

  it('prints every event as a JSON line with --json', async () => {
    const io = captureIo();
    const code = await runCli(['run', '--runs-dir', RUNS, fixturePath('echo.yaml'), '-i', 'Say ping', '--json'], io);
    expect(code).toBe(0);
    const events = io
      .stdoutText()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AgentEvent);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['agent_start', 'message_update', 'tool_end']));
    const last = events.at(-1);
    expect(last?.type).toBe('agent_end');
    expect(last?.type === 'agent_end' && last.result.text).toBe('The echo said ping.');
    expect(new Set(events.map((e) => e.agentPath))).toEqual(new Set(['assistant']));
    expect(io.stderrText()).toMatch(SUMMARY);
  });

  it('runs another agent with --entry', async () => {
    const io = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('echo.yaml'), '-i', 'x', '--entry', 'other', '--json'], io)).toBe(0);
    expect(io.stdoutText()).toContain('"agentPath":"other"');
  });

  it('needs --entry when the file has several agents and no entry', async () => {
    const file = fixturePath('no-entry.yaml');
    const missing = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, file, '-i', 'x'], missing)).toBe(2);
    expect(missing.stderrText()).toBe(`${file}:2:1: missing required key "entry" in the top level (name the agent or pipeline to run: first, second)\n`);
    const picked = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, file, '-i', 'x', '--entry', 'second', '--json'], picked)).toBe(0);
    expect(picked.stdoutText()).toContain('"agentPath":"second"');
  });

  it('exits 2 for an unknown --entry', async () => {
    const io = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('echo.yaml'), '-i', 'x', '--entry', 'nobody'], io)).toBe(2);
    expect(io.stderrText()).toBe('troupe run: unknown agent "nobody": available agents: assistant, other (from --entry)\n');
    expect(io.stdoutText()).toBe('');
  });

  it('exits 2 with every problem of a bad file, and runs nothing', async () => {
    const io = captureIo();
    const file = fixturePath('broken.yaml');
    expect(await runCli(['run', '--runs-dir', RUNS, file, '-i', 'x'], io)).toBe(2);
    expect(io.stderrText()).toBe(
      [
        `${file}:4:12: unknown provider "acme": available providers: scripted, openai, openai-chat, anthropic, google, gemini, openai-compatible, ollama, lmstudio, llamacpp, vllm, openrouter, groq, together`,
        `${file}:7:12: unknown model "demoo" in agents.assistant.model (did you mean "demo"?)`,
        `${file}:8:5: unknown key "sytem" in agents.assistant (did you mean "system"?)`,
        `${file}:9:20: unknown tool "shell" in agents.assistant.tools[1] (available tools: ask_user, bash, clock, echo, edit_file, list_files, read_file, search, send_update, task_complete, write_file)`,
        '',
      ].join('\n'),
    );
    expect(io.stdoutText()).toBe('');
  });

  it('exits 2 for a missing file', async () => {
    const io = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, 'no/such/graph.yaml', '-i', 'x'], io)).toBe(2);
    expect(io.stderrText()).toBe('no/such/graph.yaml:1:1: cannot read the graph file: file not found\n');
  });

  it('exits 1 when the run fails', async () => {
    const io = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('failing.yaml'), '-i', 'x'], io)).toBe(1);
    const lines = io.stderrText().trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(/^troupe: the run failed: .*invalid api key/);
    expect(lines.at(-1)).toMatch(/^✗ failed · 1 turn · /);
  });

  it('ends the last line of the text before exit 1, when the reply failed mid-line', async () => {
    const io = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('fails-mid-line.yaml'), '-i', 'x'], io)).toBe(1);
    expect(io.stdoutText()).toBe('I was about to say\n');
  });

  it('leaves a run that needs an approval waiting when nobody can be asked, and exits 3', async () => {
    const io = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('asks.yaml'), '-i', 'x'], io)).toBe(3);
    expect(io.stderrText()).toMatch(/troupe: run (run_\w+) is waiting; it is saved and can be answered later:\n {2}careful asks to run echo /);
    expect(io.stderrText()).toMatch(/ {4}troupe approve run_\w+ call_1_1 allow_once --runs-dir /);
  });

  it('asks the person at the terminal when there is one', async () => {
    const terminal = fakeTerminal({ onScreen: (screen, keys) => screen.includes('wants to run') && keys.press({ name: 'y', sequence: 'y' }) });
    const io = { ...captureIo(), terminal, stdoutIsTTY: true };
    expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('asks.yaml'), '-i', 'x'], io)).toBe(0);
    expect(terminal.text()).toMatch(/careful wants to run echo\(ping\)/);
    expect(terminal.text()).toContain('✓ allowed once: echo(ping)');
    expect(io.stdoutText()).toBe('Approved and echoed: ping\n');
  });

  it('writes log lines above the live view on a terminal, not under it', async () => {
    const terminal = fakeTerminal();
    const io = { ...captureIo(), terminal, stdoutIsTTY: true };
    expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('echo.yaml'), '-i', 'x', '--log-level', 'info'], io)).toBe(0);
    expect(io.stderrText()).not.toContain('tool call');
    expect(terminal.text()).toMatch(/INFO {2}tool call command=run [\s\S]*tool=echo/);
  });

  it('aborts on the interrupt signal and exits 130', async () => {
    const io = captureIo({ onStdout: (_text, self) => self.controller.abort() });
    expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('slow.yaml'), '-i', 'x'], io)).toBe(130);
    expect(io.stdoutText()).toMatch(/^Working/);
    expect(io.stdoutText()).not.toContain('never arrives');
    expect(io.stderrText()).toMatch(/\n■ aborted · /);
  });

  it('logs to stderr at the chosen level, keeping stdout clean', async () => {
    const io = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, fixturePath('echo.yaml'), '-i', 'x', '--log-level', 'info'], io)).toBe(0);
    expect(io.stdoutText()).toBe('Let me echo that.\nThe echo said ping.\n');
    const logs = io.err.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg: string; tool?: string });
    expect(logs.map((l) => l.msg)).toEqual(['run started', 'tool call', 'tool result', 'run finished']);
    expect(logs[1]?.tool).toBe('echo');
  });
});

describe('troupe usage', () => {
  it('exits 2 when the input is missing', async () => {
    const io = captureIo();
    expect(await runCli(['run', fixturePath('echo.yaml')], io)).toBe(2);
    expect(io.stderrText()).toMatch(/^troupe run: no input: give it as an argument/);
  });

  it('exits 2 for an unknown command or a bad log level', async () => {
    expect(await runCli(['walk'], captureIo())).toBe(2);
    const io = captureIo();
    expect(await runCli(['run', 'x.yaml', '-i', 'x', '--log-level', 'loud'], io)).toBe(2);
    expect(io.stderrText()).toContain('Allowed choices are silent, fatal, error, warn, info, debug, trace');
  });

  it('prints help and the version on stdout with exit 0', async () => {
    const help = captureIo();
    expect(await runCli(['run', '--runs-dir', RUNS, '--help'], help)).toBe(0);
    expect(help.stdoutText()).toContain('Usage: troupe run [options] <file> [input]');
    const version = captureIo();
    expect(await runCli(['--version'], version)).toBe(0);
    expect(version.stdoutText()).toBe('0.1.0\n');
  });
});
