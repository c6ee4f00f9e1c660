/**
 * Proves the real `troupe` command (bin/troupe.js as a child process) end to end: it streams the
 * answer to stdout with the summary on stderr and exit 0 (also for apps/examples/hello.yaml);
 * `--json` writes only parseable event lines; a malformed or missing file exits 2 with
 * `file:line:col` problems and no stack trace; and SIGINT during a run aborts it cleanly with
 * exit 130.
 */
import { fileURLToPath } from 'node:url';
import type { AgentEvent } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { spawnTroupe } from './spawn-troupe.js';

const HELLO_EXAMPLE = fileURLToPath(new URL('../../../apps/examples/hello.yaml', import.meta.url));

describe('troupe (child process)', () => {
  it('runs a graph file', async () => {
    const result = await spawnTroupe(['run', 'echo.yaml', '--input', 'Say ping']);
    expect(result.stdout).toBe('Let me echo that.\nThe echo said ping.\n');
    expect(result.stderr).toMatch(/\n✓ done · 2 turns · 71 tokens · \$0\.0033 · \d+\.\d\ds · run run_\w+\n$/);
    expect(result.code).toBe(0);
  });

  it('runs the offline example, which calls the clock tool', async () => {
    const result = await spawnTroupe(['run', HELLO_EXAMPLE, '--input', 'What time is it?', '--json']);
    expect(result.code).toBe(0);
    const events = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AgentEvent);
    const toolEnd = events.find((e) => e.type === 'tool_end');
    expect(toolEnd?.type === 'tool_end' && toolEnd.toolName).toBe('clock');
    expect(toolEnd?.type === 'tool_end' && toolEnd.result.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) },
    ]);
  });

  it('prints JSON lines with --json', async () => {
    const result = await spawnTroupe(['run', 'echo.yaml', '--input', 'Say ping', '--json']);
    expect(result.code).toBe(0);
    const events = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AgentEvent);
    expect(events.at(-1)?.type).toBe('agent_end');
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('exits 2 with positions for a malformed file', async () => {
    const result = await spawnTroupe(['run', 'broken.yaml', '--input', 'x']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toMatch(/^broken\.yaml:\d+:\d+: /);
    expect(lines[1]).toBe('broken.yaml:7:12: unknown model "demoo" in agents.assistant.model (did you mean "demo"?)');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 for a missing file', async () => {
    const result = await spawnTroupe(['run', 'missing.yaml', '--input', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('missing.yaml:1:1: cannot read the graph file: file not found\n');
  });

  it('aborts on SIGINT and exits 130', async () => {
    let sent = false;
    const result = await spawnTroupe(['run', 'slow.yaml', '--input', 'x'], {
      onStdout: (stdout, child) => {
        if (!sent && stdout.includes('Working on it.')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(sent).toBe(true);
    expect(result.code).toBe(130);
    expect(result.signal).toBeNull();
    expect(result.stdout).toBe('Working on it.\n');
    expect(result.stderr).toMatch(/\n■ aborted · \d+ turns? · \d+ tokens · \$\d+\.\d{4} · \d+\.\d\ds · run run_\w+\n$/);
  });
});
