import { resolve } from 'node:path';
import {
  connectMcpServers,
  createGraphMcpHub,
  createRuntime,
  loadGraphFile,
  mcpServersUsedBy,
  type Env,
  type GraphConfig,
  type Logger,
  type McpHub,
  type Runtime,
  type RuntimeOptions,
} from '@troupe/runtime';
import { TroupeError } from '@troupe/core';

/** How a {@link GraphHost} builds its runtime once the graph is loaded and its MCP servers are up. */
export type RuntimeFactory = (graph: GraphConfig, build: Pick<RuntimeOptions, 'env' | 'mcp'>) => Runtime;

/** A graph file loaded, its MCP servers started, and the runtime that runs (or resumes) its runs here. */
export interface GraphHost {
  readonly graph: GraphConfig;
  readonly runtime: Runtime;
  /** Closes the runtime, then ends the MCP server processes. Never rejects. */
  close(): Promise<void>;
}

/**
 * Loads `file` (problems reject with the runtime's `GraphFileError`), starts the MCP servers its
 * agents use (a server that fails rejects with `mcp_unavailable`, naming it) and builds its
 * runtime with `factory`, as `troupe run` does.
 */
export async function openGraphHost(file: string, options: { env: Env; logger: Logger; factory: RuntimeFactory }): Promise<GraphHost> {
  const loaded = await loadGraphFile(file, { env: options.env });
  // The run record keeps the file's absolute path, so another process can resume the run.
  const graph = { ...loaded, file: resolve(loaded.file) };
  let mcp: McpHub | undefined;
  if (mcpServersUsedBy(graph).length > 0) {
    mcp = createGraphMcpHub(graph, { logger: options.logger });
    const failures = await connectMcpServers(graph, mcp);
    if (failures.length > 0) {
      await mcp.close();
      throw new TroupeError('mcp_unavailable', failures.map((f) => f.error ?? `MCP server "${f.server}" is unavailable`).join('; '));
    }
  }
  const runtime = options.factory(graph, { env: options.env, ...(mcp === undefined ? {} : { mcp }) });
  return {
    graph,
    runtime,
    close: async () => {
      await runtime.close().catch((error: unknown) => options.logger.warn({ err: error }, 'closing the runtime failed'));
      await mcp?.close().catch(() => undefined);
    },
  };
}

/** Keeps one {@link GraphHost} per graph file, opened on first use. */
export class GraphHosts {
  readonly #hosts = new Map<string, Promise<GraphHost>>();
  readonly #options: { env: Env; logger: Logger; factory: RuntimeFactory };

  constructor(options: { env: Env; logger: Logger; factory: RuntimeFactory }) {
    this.#options = options;
  }

  /** The host of `file`, opened once; a failed open is tried again next time. */
  get(file: string): Promise<GraphHost> {
    const key = resolve(file);
    let host = this.#hosts.get(key);
    if (host === undefined) {
      host = openGraphHost(key, this.#options);
      this.#hosts.set(key, host);
      host.catch(() => this.#hosts.delete(key));
    }
    return host;
  }

  async close(): Promise<void> {
    const hosts = [...this.#hosts.values()];
    this.#hosts.clear();
    await Promise.all(
      hosts.map((host) =>
        host.then(
          (h) => h.close(),
          () => undefined,
        ),
      ),
    );
  }
}

/** The default {@link RuntimeFactory}: the runtime over `store`. */
export function storeRuntime(store: RuntimeOptions['store']): RuntimeFactory {
  return (graph, build) => createRuntime({ ...build, graph, ...(store === undefined ? {} : { store }) });
}
