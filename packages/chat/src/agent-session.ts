import { TroupeError, type Agent, type AgentEvent, type PermissionDecision, type Tool, type ToolSource } from '@troupe/core';
import { GraphErrorCode } from '@troupe/runtime';
import type { Observable } from 'rxjs';
import type { ChatSession } from './chat-session.js';
import type { ChatMode } from './chat-state.js';
import type { ModelSwitch } from './model-switch.js';
import { planAwareTools, promptFor } from './plan-mode.js';

/** Options of {@link agentChatSession}. */
export interface AgentChatSessionOptions {
  /** The agent's tools: the session hands it a plan-aware view of them. */
  tools: readonly Tool[] | ToolSource;
  model: string;
  contextWindow?: number;
  note?: string;
  /**
   * The model `/model name` switches to (throwing a typed error for one it does not know); without
   * it the chat cannot switch models.
   */
  models?: (name: string) => ModelSwitch;
}

/**
 * A chat with one in-memory {@link Agent} (no run record): for embedding the chat in a program,
 * and for tests. Plan mode hands the agent only its read-only tools.
 */
export function agentChatSession(agent: Agent, options: AgentChatSessionOptions): ChatSession {
  let mode: ChatMode = 'execute';
  const tools = planAwareTools(options.tools, () => mode);
  agent.configure({ tools });
  let model = options.model;
  let contextWindow = options.contextWindow;
  const run = (promise: Promise<unknown>): void => {
    // Failures of a run arrive as events; anything else is a bug worth seeing in the view's error notice.
    promise.catch(() => undefined);
  };
  return {
    entry: agent.path,
    get model() {
      return model;
    },
    get contextWindow() {
      return contextWindow;
    },
    runId: undefined,
    events$: agent.events$ as Observable<AgentEvent>,
    earlier: [],
    ...(options.note === undefined ? {} : { note: options.note }),
    async send(text) {
      const input = promptFor(text, mode);
      if (agent.isRunning) agent.followUp(input);
      else run(agent.prompt(input));
    },
    async abort() {
      if (agent.isRunning) agent.abort();
    },
    async approve(callId: string, decision: PermissionDecision) {
      agent.approve(callId, decision);
    },
    async reply(answer: string) {
      agent.reply(answer);
    },
    setMode(next) {
      mode = next;
    },
    toolNames: () => tools.current().map((tool) => tool.name),
    async switchModel(name) {
      if (options.models === undefined) throw new TroupeError(GraphErrorCode.UnknownModel, 'this chat cannot switch models');
      const next = options.models(name);
      // Throws already_running during a run, changing nothing.
      agent.configure(next.settings);
      model = next.spec;
      contextWindow = next.contextWindow;
      return { model, contextWindow };
    },
    async close() {
      agent.dispose();
    },
  };
}
