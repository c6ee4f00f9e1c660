/**
 * Proves, against a real MCP server built on the SDK (test/fixtures/probe-server.mjs over stdio),
 * what the reference servers cannot show on demand: tool lists fetched across pages; the server's
 * instructions logged at debug level only; progress
 * notifications that share a read with the result kept (regression); a server's
 * list_changed refreshing the list (listeners called, a removed tool answering with a clear error
 * result); an abort and a timeout each reaching the server as an MCP cancellation; a crash in the
 * middle of a call answered with the exit code and the stderr tail; reconnect back-off after
 * failures in a row; and close() leaving no process, also when a wrapper (sh, as npx would) started
 * the server as its child.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient, type McpToolInfo } from '../src/index.js';
import { RecordingLogger } from './support/recording-logger.js';
import { alive, childrenOf, probeServer } from './support/servers.js';
import { testToolContext } from './support/tool-context.js';

const open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function probe(logger = new RecordingLogger(), options: Parameters<typeof createMcpClient>[2] = {}): { client: McpClient; logger: RecordingLogger } {
  const client = createMcpClient('probe', probeServer(), { logger, closeGraceMs: 300, ...options });
  open.push(client);
  return { client, logger };
}

describe('probe server', () => {
  it('lists tools across pages and sanitises names', async () => {
    const { client } = probe();
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'wait_for_cancel', 'crash', 'add_tool', 'remove_tool', 'dotted.name', 'progress_burst']);
    expect(tools[5]?.exposedName).toBe('probe__dotted_name');
  });

  it("logs the server's instructions at debug level, and keeps them out of the connected line", async () => {
    const { client, logger } = probe();
    await client.connect();
    expect(client.info()?.instructions).toBe('Call echo to repeat a text.');
    const hints = await logger.waitForMessage(/^MCP server instructions$/);
    expect(hints).toEqual({ level: 'debug', message: 'MCP server instructions', data: { server: 'probe', instructions: 'Call echo to repeat a text.' } });
    const connected = await logger.waitForMessage(/^MCP server connected$/);
    expect(connected.level).toBe('info');
    expect(connected.data).not.toHaveProperty('instructions');
  });

  it('refreshes the list on list_changed; a removed tool answers with an error result', async () => {
    const { client } = probe();
    const echo = (await client.tools()).find((t) => t.name === 'probe__echo');
    const changes: McpToolInfo[][] = [];
    const changed = new Promise<void>((resolve) =>
      client.onToolsChanged((tools) => {
        changes.push(tools);
        resolve();
      }),
    );
    await client.callTool('add_tool', { name: 'fresh' });
    await changed;
    expect(changes[0]?.map((t) => t.name)).toContain('fresh');
    expect((await client.tools()).map((t) => t.name)).toContain('probe__fresh');
    await client.callTool('remove_tool', { name: 'echo' });
    expect((await client.listTools()).map((t) => t.name)).not.toContain('echo');
    const result = await echo?.execute({ text: 'hi' }, testToolContext());
    expect(result).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^MCP server "probe" does not offer the tool "echo" \(its tool list changed\)/),
    });
  });

  // Regression: the SDK settles a response before it handles a notification read with it, so the
  // last progress notifications of a call were dropped when they shared a read with the result.
  it('keeps progress notifications that arrive in the same read as the result', async () => {
    const { client } = probe();
    const progress: string[] = [];
    const result = await client.callTool('progress_burst', {}, { onProgress: (p) => progress.push(`${p.progress}/${p.total}`) });
    expect(result.content).toEqual([{ type: 'text', text: 'burst done' }]);
    expect(progress).toEqual(['1/3', '2/3', '3/3']);
  });

  it('sends an MCP cancellation when the call is aborted', async () => {
    const { client, logger } = probe();
    const controller = new AbortController();
    const running = client.callTool('wait_for_cancel', {}, { signal: controller.signal });
    await logger.waitForMessage(/^waiting /);
    controller.abort('user stop');
    expect(await running).toMatchObject({ isError: true, content: 'MCP tool probe.wait_for_cancel: cancelled' });
    expect((await logger.waitForMessage(/^cancelled /)).message).toMatch(/^cancelled \d+: user stop$/);
  });

  it('times out a silent call and cancels it on the server', async () => {
    const { client, logger } = probe();
    const result = await client.callTool('wait_for_cancel', {}, { timeoutMs: 200 });
    expect(result).toMatchObject({
      isError: true,
      content: 'MCP tool probe.wait_for_cancel timed out: no result or progress for 0 s (the server was asked to cancel it)',
    });
    expect((await logger.waitForMessage(/^cancelled /)).message).toMatch(/Request timed out/);
  });

  it('answers a crash with the exit code and stderr, then restarts', async () => {
    const { client } = probe();
    await client.connect();
    const pid = client.info()?.pid as number;
    const result = await client.callTool('crash', {});
    expect(result).toMatchObject({
      isError: true,
      content:
        'MCP server "probe" stopped during the call to crash (exited with code 3; stderr: probe ready | crashing on purpose); it is restarted on the next call',
    });
    expect(alive(pid)).toBe(false);
    expect(await client.callTool('echo', { text: 'again' })).toMatchObject({ content: [{ type: 'text', text: 'again' }] });
    expect(client.info()?.pid).not.toBe(pid);
  });

  it('backs off after failures in a row', async () => {
    let now = 1_000_000;
    const client = createMcpClient(
      'broken',
      { command: process.execPath, args: ['-e', 'console.error("no config"); process.exit(7)'] },
      { now: () => now, reconnect: { baseMs: 1000, maxMs: 8000 }, connectTimeoutMs: 5000 },
    );
    open.push(client);
    await expect(client.connect()).rejects.toMatchObject({
      code: 'mcp_unavailable',
      message: 'MCP server "broken" could not be started: the process exited with code 7 during the handshake; stderr: no config',
    });
    // The first failure is retried at once; the second one starts the back-off.
    await expect(client.connect()).rejects.toMatchObject({ code: 'mcp_unavailable', message: expect.stringMatching(/could not be started/) });
    await expect(client.connect()).rejects.toMatchObject({
      message: expect.stringMatching(/is unavailable \(could not be started: .*\); next attempt in 1 s$/),
    });
    expect(await client.callTool('x', {})).toMatchObject({ isError: true, content: expect.stringMatching(/next attempt in 1 s$/) });
    now += 1000;
    await expect(client.connect()).rejects.toMatchObject({ message: expect.stringMatching(/could not be started/) });
    await expect(client.connect()).rejects.toMatchObject({ message: expect.stringMatching(/next attempt in 2 s$/) });
  });

  it('refuses a command that does not exist, clearly', async () => {
    const client = createMcpClient('nope', { command: 'troupe-no-such-mcp-server' });
    open.push(client);
    await expect(client.connect()).rejects.toMatchObject({ message: 'MCP server "nope" could not be started: spawn troupe-no-such-mcp-server ENOENT' });
  });

  it('ends a wrapped server with its whole process group on close', async () => {
    const { command, args } = probeServer();
    // `; exit` keeps sh from exec-ing node, so the server is sh's child, as with npx.
    const client = createMcpClient('wrapped', { command: 'sh', args: ['-c', `"${command}" "${args?.[0] ?? ''}"; exit $?`] }, { closeGraceMs: 300 });
    open.push(client);
    await client.connect();
    const shell = client.info()?.pid as number;
    const [server] = childrenOf(shell);
    expect(server).toBeDefined();
    expect(await client.callTool('echo', { text: 'through sh' })).toMatchObject({ content: [{ type: 'text', text: 'through sh' }] });
    await client.close();
    expect(alive(shell)).toBe(false);
    expect(alive(server as number)).toBe(false);
  });

  it('ends the server process on close, and refuses use afterwards', async () => {
    const { client } = probe();
    await client.connect();
    const pid = client.info()?.pid as number;
    expect(alive(pid)).toBe(true);
    await client.close();
    expect(alive(pid)).toBe(false);
    expect(client.state).toBe('closed');
    await expect(client.listTools()).rejects.toMatchObject({ code: 'mcp_closed' });
    expect(await client.callTool('echo', { text: 'x' })).toMatchObject({ isError: true });
  });
});
