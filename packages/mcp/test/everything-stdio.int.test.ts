/**
 * Proves the adapter against the real @modelcontextprotocol/server-everything over stdio: the
 * tool list (with the tools the server adds after initialisation and announces with
 * list_changed), prefixed core tools whose schemas are passed on unchanged, calls mapping text,
 * images, embedded resources, resource links and structuredContent, `isError` answers as error
 * results, progress notifications as ctx.progress lines, abort as an ended call, resources,
 * prompts and roots, the server's stderr in the logs, a server killed mid-call (clear error for
 * the call in flight, restart with a new process on the next call), and close() leaving no process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient } from '../src/index.js';
import { RecordingLogger } from './support/recording-logger.js';
import { alive, everythingStdio } from './support/servers.js';
import { testToolContext } from './support/tool-context.js';

const logger = new RecordingLogger();
let client: McpClient;

beforeAll(async () => {
  client = createMcpClient('everything', everythingStdio(), { logger, closeGraceMs: 500, roots: ['/tmp/troupe-root'] });
  await client.connect();
});

afterAll(async () => {
  const pid = client.info()?.pid;
  await client.close();
  if (pid !== undefined) expect(alive(pid)).toBe(false);
});

async function call(name: string, args: Record<string, unknown>) {
  const tool = (await client.tools()).find((t) => t.name === `everything__${name}`);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute(args, testToolContext());
}

describe('server-everything over stdio', () => {
  it('lists every tool as a prefixed core tool with its schema unchanged', async () => {
    const info = client.info();
    expect(info).toMatchObject({ transport: 'stdio', serverName: 'mcp-servers/everything' });
    expect(alive(info?.pid ?? -1)).toBe(true);
    const listed = await client.listTools();
    const names = listed.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation', 'get-structured-content']));
    // Registered after initialisation because we offer roots, and announced with tools/list_changed.
    await logger.waitForMessage(/^MCP tool list changed$/);
    expect((await client.listTools()).map((t) => t.name)).toContain('get-roots-list');
    const tools = await client.tools();
    const echo = tools.find((t) => t.name === 'everything__echo');
    expect(echo?.parameters).toEqual(listed.find((t) => t.name === 'echo')?.inputSchema);
    expect(echo?.description).toBe('Echoes back the input string');
    // readOnlyHint and idempotentHint are not trusted unless the config says so.
    expect(echo?.readOnly).toBe(false);
    expect(echo?.idempotent).toBe(false);
  });

  it('calls tools and maps text, images, embedded resources, links and structured content', async () => {
    expect(await call('echo', { message: 'hello' })).toEqual({
      content: [{ type: 'text', text: 'Echo: hello' }],
      details: { server: 'everything', tool: 'echo' },
    });
    const image = await call('get-tiny-image', {});
    expect(Array.isArray(image.content) && image.content.some((part) => part.type === 'image' && part.mimeType === 'image/png' && part.data.length > 100)).toBe(
      true,
    );
    const resource = await call('get-resource-reference', { resourceType: 'Text', resourceId: 2 });
    expect(JSON.stringify(resource.content)).toContain('[resource demo://resource/dynamic/text/2');
    const links = await call('get-resource-links', { count: 2 });
    expect(JSON.stringify(links.content)).toContain('[resource link]');
    const structured = await call('get-structured-content', { location: 'New York' });
    expect(structured.details).toMatchObject({ structuredContent: { temperature: expect.any(Number) } });
  });

  it('turns isError answers into error results', async () => {
    const result = await call('get-sum', { a: 'one' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('Invalid arguments for tool get-sum');
  });

  it('passes progress notifications on as progress lines', async () => {
    const ctx = testToolContext();
    const tool = (await client.tools()).find((t) => t.name === 'everything__trigger-long-running-operation');
    const result = await tool?.execute({ duration: 0.2, steps: 2 }, ctx);
    expect(result?.content).toEqual([{ type: 'text', text: 'Long running operation completed. Duration: 0.2 seconds, Steps: 2.' }]);
    expect(ctx.progressLines).toEqual(['1/2', '2/2']);
  });

  it('ends an aborted call at once', async () => {
    const controller = new AbortController();
    const ctx = testToolContext({ signal: controller.signal, progress: () => controller.abort() });
    const tool = (await client.tools()).find((t) => t.name === 'everything__trigger-long-running-operation');
    const result = await tool?.execute({ duration: 30, steps: 300 }, ctx);
    expect(result).toMatchObject({ isError: true, content: 'MCP tool everything.trigger-long-running-operation: cancelled' });
    expect((await call('echo', { message: 'still here' })).content).toEqual([{ type: 'text', text: 'Echo: still here' }]);
  });

  it('reaches resources, prompts and roots', async () => {
    const resources = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const templates = await client.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    const [contents] = await client.readResource('demo://resource/dynamic/text/1');
    expect(contents?.text).toContain('1');
    const prompts = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt']));
    const prompt = await client.getPrompt('args-prompt', { city: 'Lisbon' });
    expect(prompt.messages[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: expect.stringContaining('Lisbon') }] });
    await logger.waitForMessage(/Roots updated: 1 root/);
    expect(JSON.stringify((await call('get-roots-list', {})).content)).toContain('file:///tmp/troupe-root');
  });

  it('logs the server stderr', () => {
    expect(logger.entries).toContainEqual({ level: 'info', message: 'Starting default (STDIO) server...', data: { server: 'everything', stream: 'stderr' } });
  });

  it('answers a call whose server is killed with a clear error, then restarts it', async () => {
    const pid = client.info()?.pid as number;
    const ctx = testToolContext({ progress: () => process.kill(pid, 'SIGKILL') });
    const tool = (await client.tools()).find((t) => t.name === 'everything__trigger-long-running-operation');
    const result = await tool?.execute({ duration: 30, steps: 300 }, ctx);
    expect(result?.isError).toBe(true);
    expect(result?.content).toMatch(/^MCP server "everything" stopped during the call to trigger-long-running-operation \(killed by SIGKILL/);
    expect(client.state).toBe('down');
    expect(alive(pid)).toBe(false);
    expect((await call('echo', { message: 'back' })).content).toEqual([{ type: 'text', text: 'Echo: back' }]);
    expect(client.state).toBe('connected');
    const newPid = client.info()?.pid;
    expect(newPid).not.toBe(pid);
    expect(alive(newPid ?? -1)).toBe(true);
    expect(logger.entries.some((e) => e.message === 'MCP server reconnecting')).toBe(true);
  });
});
