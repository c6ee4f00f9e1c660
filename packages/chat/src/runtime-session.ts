import {
  addUsage,
  createRunId,
  createSessionId,
  emptyUsage,
  parseAgentPath,
  parseRunId,
  AgentStateError,
  ErrorCode,
  TroupeError,
  type Agent,
  type AgentEvent,
  type AgentSnapshot,
  type PermissionDecision,
  type Tool,
  type ToolSource,
  type Usage,
} from '@troupe/core';
import {
  agentOptionsFromConfig,
  createInProcessTransport,
  createRuntime,
  finalStatusOf,
  type ActorBuildOptions,
  type GraphConfig,
  type RunRecord,
  type RunStore,
} from '@troupe/runtime';
import type { ChatSession } from './chat-session.js';
import type { ChatMode } from './chat-state.js';
import { graphModelSpec, graphModelSwitch, type ModelSwitch } from './model-switch.js';
import { planAwareTools, promptFor } from './plan-mode.js';

/** Options of {@link openRuntimeChat}. */
export interface RuntimeChatOptions {
  graph: GraphConfig;
  /** Where the conversation is recorded as a run (`troupe runs` lists it). */
  store: RunStore;
  /** How the graph's actors are built (environment, MCP servers, tracing). */
  build?: ActorBuildOptions;
  /**
   * Go on with this recorded conversation instead of starting a new one, on the model it was last
   * switched to (unless `model` is given).
   */
  resume?: string;
  /**
   * The model chosen for this session on the command line (`troupe chat --model`), already applied
   * to `graph`: kept in the run's record as a `/model` switch is, and it wins over the model a
   * resumed conversation was on.
   */
  model?: string;
  /** The graph file to record (absolute); none for the built-in assistant. */
  graphFile?: string;
  note?: string;
}

/**
 * A conversation with a graph's entry agent, hosted in this process by the runtime and recorded
 * in `store` as one run: its first message starts the run, later ones prompt the same actor again
 * (`prompt` control), so the history, the permission decisions and the sub-agents' records stay
 * in one run, resumable with `resume`. Plan mode gives the entry only its read-only tools.
 *
 * Throws a {@link TroupeError} (`unknown_run`) when `resume` names no run of the store.
 */
export async function openRuntimeChat(options: RuntimeChatOptions): Promise<ChatSession> {
  const { graph, store } = options;
  const entryName = graph.entry;
  const entry = parseAgentPath(entryName);
  // Built once here too, so a bad model or a missing key is reported before the UI opens.
  const built = agentOptionsFromConfig(graph, entryName, options.build ?? {});
  let mode: ChatMode = 'execute';
  let tools: ToolSource | undefined;
  /** The model `/model` switched to, if any: the entry is built with it (and configured with it once hosted). */
  let switched: ModelSwitch | undefined;
  /** The name of the model chosen for the entry (`--model`, or what `/model` was given): what the run's record keeps. */
  let switchedTo = options.model?.trim();
  /** The entry's agent while the runtime hosts it. */
  let hosted: Agent | undefined;
  const runtime = createRuntime({
    ...options.build,
    graph,
    store,
    transport: (parts) =>
      createInProcessTransport({
        ...parts,
        factory: (request, transport) => {
          const made = parts.factory(request, transport);
          if (request.path !== entry) return made;
          tools = planAwareTools(made.tools ?? [], () => mode);
          if (switched === undefined) return { ...made, tools };
          // The switched model's window, not the graph model's (none when the catalog does not know it).
          const { contextWindow: _graphs, ...rest } = made;
          const window = switched.contextWindow === undefined ? {} : { contextWindow: switched.contextWindow };
          return { ...rest, ...switched.settings, ...window, tools };
        },
        onHost: (actor) => {
          if (actor.request.path === entry) hosted = actor.agent;
        },
      }),
  });
  const transport = runtime.transport;

  let record: RunRecord | undefined;
  let earlier: AgentEvent[] = [];
  let snapshot: AgentSnapshot | undefined;
  if (options.resume !== undefined) {
    record = await store.getRun(parseRunId(options.resume));
    if (record === undefined) throw new TroupeError('unknown_run', `no run ${options.resume} in this runs folder (troupe runs lists them)`);
    earlier = await store.readEvents(record.id);
    snapshot = (await store.loadSnapshots(record.id)).find((s) => s.agentPath === entry);
  }
  let note = options.note;
  if (record?.model !== undefined && switchedTo === undefined) {
    // The conversation goes on with the model it was switched to, if this graph and environment still offer it.
    try {
      switched = graphModelSwitch(graph, entryName, record.model, options.build);
      switchedTo = record.model;
    } catch (error) {
      const gone = !record.model.includes(':') && !Object.hasOwn(graph.models, record.model);
      const why = gone ? `the graph has no model ${record.model} now` : error instanceof Error ? error.message : String(error);
      const said = `This conversation was on ${record.model}, which is not available now (${why}): going on with ${graphModelSpec(graph, entryName)}.`;
      note = note === undefined ? said : `${note}\n${said}`;
    }
  }
  const runId = record?.id ?? createRunId(Date.now());
  const sessionId = record?.sessionId ?? createSessionId(Date.now());
  let usage: Usage = emptyUsage();
  for (const event of earlier) if (event.type === 'usage') usage = addUsage(usage, event.usage);

  // Record updates are written in order, one after the other.
  let writes: Promise<void> = Promise.resolve();
  const write = (patch: Partial<RunRecord>): void => {
    writes = writes.then(() => store.updateRun(runId, patch)).catch(() => undefined);
  };
  let running = false;
  let spawned = false;
  const events$ = transport.events(runId);
  const subscription = events$.subscribe((event) => {
    if (event.type === 'usage') usage = addUsage(usage, event.usage);
    if (event.agentPath !== entry) return;
    if (event.type === 'agent_start') {
      running = true;
      write({ status: 'running' });
    } else if (event.type === 'state' && event.state === 'waiting_user') write({ status: 'waiting' });
    else if (event.type === 'state' && (event.state === 'thinking' || event.state === 'tool_executing')) write({ status: 'running' });
    else if (event.type === 'agent_end') {
      running = false;
      const { stopReason } = event.result;
      write({ status: finalStatusOf(stopReason), stopReason, endedAt: Date.now(), usage });
    }
  });
  if (record !== undefined && switchedTo !== undefined && record.model !== switchedTo) write({ model: switchedTo });
  if (snapshot !== undefined) {
    await transport.spawn({ runId, path: entry, agent: entryName, snapshot, depth: 0 });
    spawned = true;
  }
  const before = planAwareTools(built.tools ?? [], () => mode);
  const current = (): readonly Tool[] => (tools ?? before).current();

  return {
    entry,
    get model() {
      return switched?.spec ?? graphModelSpec(graph, entryName);
    },
    get contextWindow() {
      return switched === undefined ? built.contextWindow : switched.contextWindow;
    },
    runId,
    events$,
    earlier,
    ...(note === undefined ? {} : { note }),
    async send(text) {
      const input = promptFor(text, mode);
      if (!spawned) {
        spawned = true;
        const started: RunRecord = { id: runId, entry: entryName, input, sessionId, status: 'running', startedAt: Date.now() };
        if (options.graphFile !== undefined) started.graphFile = options.graphFile;
        if (switchedTo !== undefined) started.model = switchedTo;
        await store.createRun(started);
        await transport.spawn({ runId, path: entry, agent: entryName, input, depth: 0, sessionId });
        return;
      }
      await transport.control(runId, entry, running ? { type: 'followUp', message: input } : { type: 'prompt', input });
    },
    async abort() {
      if (running) await transport.control(runId, entry, { type: 'abort' });
    },
    approve: (callId: string, decision: PermissionDecision, path: string) =>
      transport.control(runId, parseAgentPath(path), { type: 'approve', callId, decision }),
    reply: (answer: string, path: string) => transport.control(runId, parseAgentPath(path), { type: 'reply', answer }),
    setMode(next) {
      mode = next;
    },
    toolNames: () => current().map((tool) => tool.name),
    async switchModel(name) {
      if (running) throw new AgentStateError(ErrorCode.AlreadyRunning, 'the model can change between turns: wait for this one to end (or Esc)');
      const next = graphModelSwitch(graph, entryName, name, options.build);
      // Not hosted yet (no message sent): the factory builds the entry with it.
      hosted?.configure(next.settings);
      switched = next;
      // Kept in the run's record, so a resumed conversation goes on with it.
      switchedTo = name.trim();
      if (spawned) write({ model: switchedTo });
      return { model: next.spec, contextWindow: next.contextWindow };
    },
    async close() {
      if (running) {
        // Quitting mid-turn ends the turn as aborted, so the record says so.
        const ended = transport.result(runId, entry).catch(() => undefined);
        await transport.control(runId, entry, { type: 'abort' }).catch(() => undefined);
        await ended;
      }
      subscription.unsubscribe();
      await writes;
      await runtime.close();
      if (spawned) await store.flush(runId);
    },
  };
}
