import { resolve } from 'node:path';
import { parseRunId, TroupeError } from '@troupe/core';
import {
  createFileRunStore,
  GraphFileError,
  McpAdapterError,
  ProviderConfigError,
  UnknownAgentError,
  withModelOverride,
  type GraphConfig,
  type LogLevel,
} from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { commandLogger } from '../command-logger.js';
import { ExitCode } from '../exit-code.js';
import { loadProjectEnv } from '../project/dotenv.js';
import { runsDirFlag } from './runs-dir-flag.js';
import { loadGraphOrSay } from './load-graph.js';
import { startMcpServers } from './mcp-servers.js';

/** What `troupe chat` was asked to do. */
export interface ChatCommandOptions {
  /** The graph file; without one, the built-in assistant with the file tools on the current directory. */
  file?: string;
  /** The agent to talk to instead of the file's entry. */
  agent?: string;
  /** `provider:model` for the agent instead of its own (or the environment's, for the built-in assistant). */
  model?: string;
  /** Go on with this recorded chat. */
  resume?: string;
  runsDir: string;
  logLevel?: LogLevel;
}

/**
 * `troupe chat`: a full-screen conversation with an agent in the terminal (`@troupe/chat`, loaded
 * only here so other commands do not pay for React). The chat is recorded as one run under
 * `runsDir` (`troupe runs` lists it, `--resume` goes on with it). Needs a terminal on standard
 * input and output; a bad graph file, model or run exits 2 before the screen opens.
 */
export async function chatCommand(options: ChatCommandOptions, io: CliIo): Promise<ExitCode> {
  if (io.terminal?.keys === undefined || io.stdoutIsTTY !== true) {
    io.stderr('troupe chat: needs a terminal (standard input and output); use troupe run for scripts\n');
    return ExitCode.BadInput;
  }
  const chat = await importChat();
  const store = createFileRunStore(options.runsDir);
  let file = options.file === undefined ? undefined : resolve(options.file);
  let entry = options.agent;
  if (options.resume !== undefined && file === undefined) {
    // A resumed chat runs on the graph it was started with (none: the built-in assistant).
    const record = await store.getRun(parseRunId(options.resume));
    if (record === undefined) {
      io.stderr(`troupe chat: no run ${options.resume} in ${options.runsDir} (troupe runs${runsDirFlag(options.runsDir)} lists them)\n`);
      return ExitCode.BadInput;
    }
    file = record.graphFile;
    entry ??= file === undefined ? undefined : record.entry;
    if (file !== undefined) loadProjectEnv(io, process.cwd(), file);
  }
  let graph: GraphConfig | undefined;
  let note: string | undefined;
  try {
    if (file === undefined) {
      const model = options.model ?? chat.modelFromEnv(io.env);
      if (model === undefined) note = chat.OFFLINE_NOTE;
      graph = await chat.defaultChatGraph({ cwd: process.cwd(), env: io.env, ...(model === undefined ? {} : { model }) });
    } else {
      graph = await loadGraphOrSay(file, io, 'chat', entry === undefined ? {} : { entry });
      if (graph === undefined) return ExitCode.BadInput;
      if (options.model !== undefined) graph = withModelOverride(graph, options.model, graph.entry);
    }
  } catch (error) {
    if (error instanceof GraphFileError || error instanceof UnknownAgentError || error instanceof ProviderConfigError) {
      io.stderr(`troupe chat: ${error.message}\n`);
      return ExitCode.BadInput;
    }
    throw error;
  }
  const logger = commandLogger(io, options.logLevel ?? 'error', 'chat');
  const mcp = await startMcpServers(graph, Object.keys(graph.agents), logger, io, 'chat');
  if (mcp.failed) {
    await mcp.close();
    return ExitCode.RunFailed;
  }
  try {
    let session: Awaited<ReturnType<typeof chat.openRuntimeChat>>;
    try {
      session = await chat.openRuntimeChat({
        graph,
        store,
        build: { env: io.env, ...(mcp.hub === undefined ? {} : { mcp: mcp.hub }) },
        ...(file === undefined ? {} : { graphFile: file }),
        ...(options.resume === undefined ? {} : { resume: options.resume }),
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(note === undefined ? {} : { note }),
      });
    } catch (error) {
      // A missing API key, a bad --model, an MCP server the agent names that is not there, an unknown run.
      if (error instanceof ProviderConfigError || error instanceof McpAdapterError || error instanceof UnknownAgentError || error instanceof TroupeError) {
        io.stderr(`troupe chat: ${error.message}\n`);
        return ExitCode.BadInput;
      }
      throw error;
    }
    await chat.runChat(session);
    if (session.runId !== undefined)
      io.stderr(`chat recorded as run ${session.runId}; go on with: troupe chat --resume ${session.runId}${runsDirFlag(options.runsDir)}\n`);
    return ExitCode.Ok;
  } finally {
    await mcp.close();
  }
}

/**
 * Loads `@troupe/chat` for a person at a terminal. ink (through `is-in-ci`) decides once, when it
 * is first imported, that a `CI` or `CONTINUOUS_INTEGRATION` variable means nobody watches, and
 * then draws only its last frame: in a shell that exports one, the chat's screen stayed blank.
 * The variables are hidden during the import only, so the chat's tools still see them.
 */
async function importChat(): Promise<typeof import('@troupe/chat')> {
  const hidden = ['CI', 'CONTINUOUS_INTEGRATION'].flatMap((key) => {
    const value = process.env[key];
    return value === undefined ? [] : [[key, value] as const];
  });
  for (const [key] of hidden) delete process.env[key];
  try {
    return await import('@troupe/chat');
  } finally {
    for (const [key, value] of hidden) process.env[key] = value;
  }
}
