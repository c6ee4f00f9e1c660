/**
 * Proves the bash tool with real child processes: it runs in the workspace, reports stdout,
 * stderr and the exit code (in the text and in details), cuts stdout and stderr independently
 * keeping head and tail, kills the whole process group (grandchildren included) on timeout and
 * on abort, reports its process group to a tracker while the command runs, refuses deny-listed
 * commands before anything is spawned, and is not read-only.
 */
import { watch } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/node/bash/bash-tool.js';
import { testToolContext } from '../../tool-context.js';
import { tempWorkspace, textOf } from '../temp-workspace.js';

// These tests look at the command's processes by pid: outside a sandbox, whose pid namespace
// would number them apart (test/node/sandbox covers the sandboxed command).
const unconfined = { mode: 'off' } as const;

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  ws = await tempWorkspace({ 'hello.txt': 'hi there\n' });
});
afterEach(() => ws.remove());

/** Whether a process is still running (a zombie counts as gone: it has exited). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Resolves with the file's content once it exists and is not empty (a latch on the directory). */
function whenWritten(dir: string, name: string): Promise<string> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const path = `${dir}/${name}`;
      if (!existsSync(path)) return false;
      const text = readFileSync(path, 'utf8');
      if (!text.endsWith('\n')) return false;
      watcher.close();
      resolve(text.trim());
      return true;
    };
    const watcher = watch(dir, () => check());
    check();
  });
}

describe('bash', () => {
  it('runs in the workspace and reports output and exit code', async () => {
    const tool = createBashTool({ workspace: ws.root });
    expect(tool.readOnly).toBe(false);
    const ok = await tool.execute({ command: 'cat hello.txt; pwd' }, testToolContext());
    expect(ok.isError).toBeUndefined();
    expect(textOf(ok.content)).toBe(`hi there\n${ws.root}`);
    expect(ok.details).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
    const failing = await tool.execute({ command: 'echo out; echo err >&2; exit 3' }, testToolContext());
    expect(failing).toMatchObject({ isError: true, content: 'out\n[stderr]\nerr\n[exit code 3]', details: { exitCode: 3 } });
    expect((await tool.execute({ command: 'true' }, testToolContext())).content).toBe('(no output)');
  });

  it('cuts stdout and stderr independently, keeping head and tail', async () => {
    const tool = createBashTool({ workspace: ws.root, settings: { maxOutputBytes: 100 } });
    const result = await tool.execute({ command: "seq 1 2000; printf 'small error' >&2" }, testToolContext());
    const text = textOf(result.content);
    expect(text.startsWith('1\n2\n3\n')).toBe(true);
    expect(text).toMatch(/\n\[… \d+ bytes omitted …\]\n/);
    expect(text).toContain('1999\n2000\n[stderr]\nsmall error');
    expect(result.details).toMatchObject({ stdoutBytes: 8893, stderrBytes: 11 });
  });

  it('kills the whole process group on timeout', async () => {
    // Long enough for a loaded machine to start bash and write the pid file before the timeout.
    const tool = createBashTool({ workspace: ws.root, sandbox: unconfined, settings: { timeoutMs: 2500 } });
    const result = await tool.execute({ command: 'sleep 30 & echo $! > child.pid; wait' }, testToolContext());
    expect(result).toMatchObject({ isError: true, details: { timedOut: true } });
    expect(textOf(result.content)).toContain('[timed out after 2.5 s; the command and its child processes were killed]');
    const child = Number((await readFile(ws.path('child.pid'), 'utf8')).trim());
    expect(alive(child)).toBe(false);
  });

  it('kills the whole process group on abort', async () => {
    const tool = createBashTool({ workspace: ws.root, sandbox: unconfined });
    const controller = new AbortController();
    const started = whenWritten(ws.root, 'child.pid');
    const running = tool.execute({ command: 'sh -c "sleep 30" & echo $! > child.pid; wait' }, testToolContext({ signal: controller.signal }));
    const child = Number(await started);
    expect(alive(child)).toBe(true);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ isError: true, details: { aborted: true } });
    expect(textOf(result.content)).toContain('[aborted; the command and its child processes were killed]');
    expect(alive(child)).toBe(false);
  });

  it('reports its process group to the tracker while the command runs', async () => {
    const seen: string[] = [];
    // The command waits on a FIFO the tracker opens once it has looked at the group: it is still running then.
    execFileSync('mkfifo', [ws.path('go')]);
    const tool = createBashTool({
      workspace: ws.root,
      sandbox: unconfined,
      processGroups: {
        started: (pgid) => {
          seen.push(`started ${pgid} ${alive(pgid) ? 'alive' : 'gone'}`);
          void writeFile(ws.path('go'), 'go\n');
          return () => void seen.push(`released ${pgid}`);
        },
      },
    });
    // $$ in `bash -c` is the shell itself: the group's leader.
    const result = await tool.execute({ command: 'read line < go; echo $$' }, testToolContext());
    const leader = Number(textOf(result.content));
    expect(seen).toEqual([`started ${leader} alive`, `released ${leader}`]);
  });

  it('refuses deny-listed commands before spawning anything', async () => {
    const tool = createBashTool({ workspace: ws.root, settings: { deny: ['\\bgit\\s+push\\b'] } });
    const refused = await tool.execute({ command: 'touch marker; rm -rf /' }, testToolContext());
    expect(refused).toMatchObject({ isError: true, content: 'bash: refused to run this command: recursive rm of / or the home directory (deny list)' });
    expect(existsSync(ws.path('marker'))).toBe(false);
    expect(await tool.execute({ command: 'touch marker && git push' }, testToolContext())).toMatchObject({ isError: true });
    expect(existsSync(ws.path('marker'))).toBe(false);
    const lax = createBashTool({ workspace: ws.root, settings: { defaultDeny: false } });
    expect((await lax.execute({ command: 'echo "rm -rf /"' }, testToolContext())).content).toBe('rm -rf /');
  });
});
