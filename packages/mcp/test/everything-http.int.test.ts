/**
 * Proves the HTTP transports against the real @modelcontextprotocol/server-everything: over
 * streamable HTTP (listing, calling, progress, headers and the bearer token reaching the server,
 * through a recording proxy); against the server's legacy SSE mode, both by falling back from a
 * refused streamable attempt and with `type: sse`; and that an unreachable URL gives clear
 * errors and error results instead of throwing from tool calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpClient } from '../src/index.js';
import { startRecordingProxy, type RecordingProxy } from './support/header-recording-proxy.js';
import { RecordingLogger } from './support/recording-logger.js';
import { freePort, startEverythingHttp, type HttpServerProcess } from './support/servers.js';
import { testToolContext } from './support/tool-context.js';

let streamable: HttpServerProcess;
let sse: HttpServerProcess;
let proxy: RecordingProxy;

beforeAll(async () => {
  [streamable, sse] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('sse')]);
  proxy = await startRecordingProxy(streamable.url);
});

afterAll(async () => {
  await proxy?.close();
  await Promise.all([streamable?.stop(), sse?.stop()]);
});

describe('server-everything over HTTP', () => {
  it('works over streamable HTTP, sending headers and the bearer token', async () => {
    const client = createMcpClient('web', { url: proxy.url, headers: { 'X-Team': 'troupe' }, bearerToken: 's3cret' });
    try {
      expect(await client.connect()).toMatchObject({ transport: 'streamable-http', serverName: 'mcp-servers/everything' });
      const tools = await client.tools();
      expect(tools.map((t) => t.name)).toContain('web__echo');
      expect(await client.callTool('echo', { message: 'over http' })).toMatchObject({ content: [{ type: 'text', text: 'Echo: over http' }] });
      const ctx = testToolContext();
      await tools.find((t) => t.name === 'web__trigger-long-running-operation')?.execute({ duration: 0.2, steps: 2 }, ctx);
      expect(ctx.progressLines).toEqual(['1/2', '2/2']);
      expect(proxy.headers.length).toBeGreaterThan(2);
      for (const headers of proxy.headers) expect(headers).toMatchObject({ authorization: 'Bearer s3cret', 'x-team': 'troupe' });
    } finally {
      await client.close();
    }
  });

  it('falls back to legacy SSE when streamable HTTP is refused', async () => {
    const logger = new RecordingLogger();
    const client = createMcpClient('old', { url: sse.url }, { logger });
    try {
      expect(await client.connect()).toMatchObject({ transport: 'sse' });
      expect(logger.entries.some((e) => e.message === 'MCP streamable HTTP refused; trying legacy SSE')).toBe(true);
      expect(await client.callTool('echo', { message: 'legacy' })).toMatchObject({ content: [{ type: 'text', text: 'Echo: legacy' }] });
    } finally {
      await client.close();
    }
  });

  it('goes to SSE directly with type sse', async () => {
    const logger = new RecordingLogger();
    const client = createMcpClient('old', { type: 'sse', url: sse.url }, { logger });
    try {
      expect(await client.connect()).toMatchObject({ transport: 'sse' });
      expect(logger.entries.some((e) => e.message.includes('legacy SSE'))).toBe(false);
      expect((await client.listTools()).length).toBeGreaterThan(5);
    } finally {
      await client.close();
    }
  });

  it('reports an unreachable server clearly, and tool calls answer with error results', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const client = createMcpClient('gone', { url });
    try {
      await expect(client.connect()).rejects.toMatchObject({
        code: 'mcp_unavailable',
        message: expect.stringMatching(/^MCP server "gone" could not be reached: /),
      });
      expect(client.state).toBe('down');
      const result = await client.callTool('echo', { message: 'x' });
      expect(result).toMatchObject({ isError: true, content: expect.stringMatching(/^MCP server "gone" (could not be reached|is unavailable)/) });
    } finally {
      await client.close();
    }
  });
});
