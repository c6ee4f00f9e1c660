import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolResult } from '@troupe/core';
import { isStdioConfig, type McpServerConfig } from '../mcp-server-config.js';
import { McpAdapterError, McpErrorCode, messageOf } from '../mcp-errors.js';
import { silentMcpLogger, type McpLogger } from '../mcp-logger.js';
import type { McpPrompt, McpPromptResult, McpResource, McpResourceContents, McpResourceTemplate, McpServerInfo, McpToolInfo } from '../mcp-types.js';
import { createMcpTool } from '../tools/mcp-tool.js';
import { mapCallToolResult } from '../tools/result-mapping.js';
import { defaultToolPrefix } from '../tools/tool-naming.js';
import { toPrompt, toPromptResult, toResource, toResourceContents, toResourceTemplate } from './catalog-mapping.js';
import { listAll } from './list-all.js';
import type { McpClient } from './mcp-client.js';
import type { McpCallOptions, McpClientOptions, McpClientState, McpProgress } from './mcp-client-options.js';
import type { Session } from './open-session.js';
import { ReconnectPolicy } from './reconnect-policy.js';
import { loadSdk, type SdkModules } from './sdk-modules.js';
import { toolInfos, toolsSignature, type SkippedTool } from './tool-info.js';

/** A session plus what the connection tracks of it. */
interface Live extends Session {
  /** Why it ended, when the server went away on its own. */
  down?: string;
  /** We are closing it. */
  closing: boolean;
  /** Bumped by every list_changed notification. */
  toolsVersion: number;
  fetchedVersion: number;
  tools?: McpToolInfo[];
  fetching?: Promise<McpToolInfo[]> | undefined;
}

/** See {@link McpClient}: one server, connected on demand, restarted with back-off. */
export class ServerConnection implements McpClient {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly #options: McpClientOptions;
  readonly #logger: McpLogger;
  readonly #policy: ReconnectPolicy;
  readonly #prefix: string;
  readonly #listeners = new Set<(tools: McpToolInfo[]) => void>();
  #live: Live | undefined;
  #opening: Promise<Live> | undefined;
  #closed = false;
  #skipped: SkippedTool[] = [];
  #signature: string | undefined;
  /** The MCP SDK, once the first connection loaded it. */
  #sdk: SdkModules | undefined;

  constructor(name: string, config: McpServerConfig, options: McpClientOptions) {
    this.name = name;
    this.config = config;
    this.#options = options;
    this.#logger = options.logger ?? silentMcpLogger;
    this.#policy = new ReconnectPolicy(options.reconnect ?? {}, options.now ?? Date.now);
    this.#prefix = config.toolPrefix ?? defaultToolPrefix(name);
  }

  get state(): McpClientState {
    if (this.#closed) return 'closed';
    if (this.#opening !== undefined) return 'connecting';
    if (this.#live !== undefined && this.#live.down === undefined) return 'connected';
    return this.#policy.failures > 0 ? 'down' : 'idle';
  }

  info(): McpServerInfo | undefined {
    return this.#live?.info;
  }

  async connect(): Promise<McpServerInfo> {
    return (await this.#session()).info;
  }

  async listTools(): Promise<McpToolInfo[]> {
    return this.#toolsOf(await this.#session());
  }

  knownTools(): McpToolInfo[] | undefined {
    return this.#live?.tools;
  }

  skippedTools(): SkippedTool[] {
    return [...this.#skipped];
  }

  async tools(): Promise<Tool[]> {
    return (await this.listTools()).map((info) => this.toolFor(info));
  }

  toolFor(info: McpToolInfo): Tool {
    return createMcpTool(this, info, { trustAnnotations: this.config.trustAnnotations === true });
  }

  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<ToolResult> {
    const failed = (text: string): ToolResult => ({ content: text, isError: true, details: { server: this.name, tool: name } });
    let live: Live;
    let listed: McpToolInfo[];
    try {
      live = await this.#session();
      listed = await this.#toolsOf(live);
    } catch (error) {
      return failed(messageOf(error));
    }
    if (!listed.some((tool) => tool.name === name)) {
      return failed(
        `MCP server "${this.name}" does not offer the tool "${name}" (its tool list changed); its tools now: ${listed.map((t) => t.name).join(', ') || 'none'}`,
      );
    }
    const timeout = options.timeoutMs ?? this.config.timeoutMs ?? this.#options.timeoutMs ?? 60_000;
    try {
      const result = await live.client.callTool({ name, arguments: args }, undefined, {
        timeout,
        resetTimeoutOnProgress: true,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.onProgress === undefined ? {} : { onprogress: (p: SdkProgress) => options.onProgress?.(progressOf(p)) }),
      });
      this.#policy.succeeded();
      // Servers of protocol 2024-10-07 answer with `toolResult` instead of content blocks.
      if (!hasContent(result)) return mapCallToolResult({ content: [{ type: 'text', text: JSON.stringify(result['toolResult']) }] }, this.name, name);
      return mapCallToolResult(result, this.name, name);
    } catch (error) {
      if (options.signal?.aborted === true) return failed(`MCP tool ${this.name}.${name}: cancelled`);
      if (live.down !== undefined)
        return failed(`MCP server "${this.name}" stopped during the call to ${name} (${live.down}); it is restarted on the next call`);
      if (this.#sdk?.isRequestTimeout(error) === true) {
        return failed(`MCP tool ${this.name}.${name} timed out: no result or progress for ${Math.round(timeout / 1000)} s (the server was asked to cancel it)`);
      }
      return failed(`MCP tool ${this.name}.${name} failed: ${messageOf(error)}`);
    }
  }

  async listResources(): Promise<McpResource[]> {
    const { client } = await this.#session();
    const items = await this.#request('resources/list', () =>
      listAll(async (cursor) => {
        const page = await client.listResources(cursor === undefined ? {} : { cursor });
        return { items: page.resources, nextCursor: page.nextCursor };
      }),
    );
    return items.map(toResource);
  }

  async listResourceTemplates(): Promise<McpResourceTemplate[]> {
    const { client } = await this.#session();
    const items = await this.#request('resources/templates/list', () =>
      listAll(async (cursor) => {
        const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor });
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      }),
    );
    return items.map(toResourceTemplate);
  }

  async readResource(uri: string): Promise<McpResourceContents[]> {
    const { client } = await this.#session();
    return toResourceContents(await this.#request('resources/read', () => client.readResource({ uri })));
  }

  async listPrompts(): Promise<McpPrompt[]> {
    const { client } = await this.#session();
    const items = await this.#request('prompts/list', () =>
      listAll(async (cursor) => {
        const page = await client.listPrompts(cursor === undefined ? {} : { cursor });
        return { items: page.prompts, nextCursor: page.nextCursor };
      }),
    );
    return items.map(toPrompt);
  }

  async getPrompt(name: string, args: Record<string, string> = {}): Promise<McpPromptResult> {
    const { client } = await this.#session();
    return toPromptResult(await this.#request('prompts/get', () => client.getPrompt({ name, arguments: args })), this.name, name);
  }

  onToolsChanged(listener: (tools: McpToolInfo[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const opening = this.#opening;
    const live = opening === undefined ? this.#live : await opening.catch(() => undefined);
    this.#live = undefined;
    if (live === undefined) return;
    live.closing = true;
    await live.client.close().catch((error: unknown) => this.#logger.debug({ server: this.name, error: messageOf(error) }, 'MCP close failed'));
    this.#logger.info({ server: this.name }, 'MCP server closed');
  }

  /** A live session: the current one, one being opened, or a new one when the back-off allows. */
  #session(): Promise<Live> {
    if (this.#closed) return Promise.reject(new McpAdapterError(McpErrorCode.Closed, `the MCP client for "${this.name}" is closed`, { server: this.name }));
    const live = this.#live;
    if (live !== undefined && live.down === undefined) return Promise.resolve(live);
    if (this.#opening !== undefined) return this.#opening;
    const wait = this.#policy.remainingMs();
    if (wait > 0) {
      const message = `MCP server "${this.name}" is unavailable (${this.#policy.lastError}); next attempt in ${Math.ceil(wait / 1000)} s`;
      return Promise.reject(new McpAdapterError(McpErrorCode.Unavailable, message, { server: this.name }));
    }
    const opening = this.#open().finally(() => {
      if (this.#opening === opening) this.#opening = undefined;
    });
    this.#opening = opening;
    return opening;
  }

  async #open(): Promise<Live> {
    const again = this.#live !== undefined || this.#policy.failures > 0;
    this.#logger.info({ server: this.name }, again ? 'MCP server reconnecting' : 'MCP server connecting');
    let session: Session;
    try {
      const sdk = await loadSdk();
      this.#sdk = sdk;
      session = await sdk.openSession(this.config, {
        server: this.name,
        newClient: () =>
          sdk.newSdkClient({
            server: this.name,
            clientInfo: this.#options.clientInfo ?? { name: 'troupe', version: '0.1.0' },
            logger: this.#logger,
            ...(this.#options.roots === undefined ? {} : { roots: this.#options.roots }),
            ...(this.#options.elicit === undefined ? {} : { elicit: this.#options.elicit }),
            onToolListChanged: (client) => this.#onToolListChanged(client),
          }),
        connectTimeoutMs: this.#options.connectTimeoutMs ?? 30_000,
        graceMs: this.#options.closeGraceMs ?? 2000,
        onStderrLine: (line) => this.#logger.info({ server: this.name, stream: 'stderr' }, line),
        onFallback: (error) => this.#logger.info({ server: this.name, error: messageOf(error) }, 'MCP streamable HTTP refused; trying legacy SSE'),
      });
    } catch (error) {
      const reason = `${isStdioConfig(this.config) ? 'could not be started' : 'could not be reached'}: ${messageOf(error)}`;
      this.#policy.failed(reason);
      this.#logger.warn({ server: this.name, error: messageOf(error) }, 'MCP server connection failed');
      throw new McpAdapterError(McpErrorCode.Unavailable, `MCP server "${this.name}" ${reason}`, { server: this.name, cause: error });
    }
    const live: Live = { ...session, closing: false, toolsVersion: 0, fetchedVersion: -1 };
    if (this.#closed) {
      await session.client.close().catch(() => undefined);
      throw new McpAdapterError(McpErrorCode.Closed, `the MCP client for "${this.name}" is closed`, { server: this.name });
    }
    session.client.onclose = () => this.#onClose(live);
    session.client.onerror = (error) => this.#logger.debug({ server: this.name, error: error.message }, 'MCP transport error');
    this.#live = live;
    const { instructions, ...info } = session.info;
    this.#logger.info({ server: this.name, ...info }, 'MCP server connected');
    // Usage hints for the model, often long: for whoever debugs a graph, not for every run's log.
    if (instructions !== undefined) this.#logger.debug({ server: this.name, instructions }, 'MCP server instructions');
    return live;
  }

  #onClose(live: Live): void {
    if (live.closing || live.down !== undefined) return;
    const exit = live.process?.exit;
    const how = exit === undefined ? 'the connection closed' : exit.signal !== null ? `killed by ${exit.signal}` : `exited with code ${exit.code ?? 'unknown'}`;
    const tail = live.process?.stderrTail().slice(-3).join(' | ');
    live.down = tail === undefined || tail === '' ? how : `${how}; stderr: ${tail}`;
    this.#policy.failed(live.down);
    this.#logger.warn({ server: this.name, reason: live.down }, 'MCP server went away');
  }

  /** The session's tool list: cached, or fetched (all pages) when missing or stale. */
  #toolsOf(live: Live): Promise<McpToolInfo[]> {
    if (live.tools !== undefined && live.fetchedVersion === live.toolsVersion) return Promise.resolve(live.tools);
    live.fetching ??= this.#fetchTools(live).finally(() => (live.fetching = undefined));
    return live.fetching;
  }

  async #fetchTools(live: Live): Promise<McpToolInfo[]> {
    for (;;) {
      const version = live.toolsVersion;
      const listed = await this.#request('tools/list', () =>
        listAll(async (cursor) => {
          const page = await live.client.listTools(cursor === undefined ? {} : { cursor });
          return { items: page.tools, nextCursor: page.nextCursor };
        }),
      );
      if (live.toolsVersion !== version) continue;
      const { tools, skipped } = toolInfos(this.name, this.#prefix, listed, this.#logger);
      live.tools = tools;
      live.fetchedVersion = version;
      this.#skipped = skipped;
      const signature = toolsSignature(tools);
      const changed = this.#signature !== undefined && signature !== this.#signature;
      this.#signature = signature;
      if (changed) for (const listener of this.#listeners) listener(tools);
      return tools;
    }
  }

  #onToolListChanged(client: Client): void {
    const live = this.#live;
    if (live === undefined || live.client !== client) return;
    live.toolsVersion += 1;
    this.#logger.info({ server: this.name }, 'MCP tool list changed');
    this.#toolsOf(live).catch((error: unknown) => {
      // A refresh cut short by close() or a crash is not news: the crash is logged on its own.
      const level = live.closing || live.down !== undefined ? 'debug' : 'warn';
      this.#logger[level]({ server: this.name, error: messageOf(error) }, 'MCP tool list refresh failed');
    });
  }

  /** Runs a request, turning failures into `mcp_request_failed` (or the crash that caused them). */
  async #request<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      this.#policy.succeeded();
      return result;
    } catch (error) {
      const down = this.#live?.down;
      const reason = down === undefined ? messageOf(error) : `the server stopped (${down})`;
      throw new McpAdapterError(McpErrorCode.RequestFailed, `MCP server "${this.name}": ${what} failed: ${reason}`, { server: this.name, cause: error });
    }
  }
}

function hasContent(result: Record<string, unknown>): result is CallToolResult {
  return Array.isArray(result['content']);
}

/** A progress notification's params as the SDK hands them over. */
interface SdkProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

function progressOf(p: SdkProgress): McpProgress {
  const out: McpProgress = { progress: p.progress };
  if (p.total !== undefined) out.total = p.total;
  if (p.message !== undefined) out.message = p.message;
  return out;
}
