/**
 * Shared helpers for the core tests: event collection, latches, and small tools. Not a test.
 */
import { Agent, type AgentEvent, type AgentOptions, type PermissionRules, type Tool, type ToolContext, type ToolResult } from '../src/index.js';
import { createScriptedProvider, type ScriptStep } from '../src/testing.js';

/**
 * The policy of tests about the loop rather than approvals: every call runs (the default, `smart`,
 * would ask for the tools below that are not read-only).
 */
export const ALLOW: PermissionRules = { mode: 'allow' };

/** A promise with its resolve function, for ordering without sleeps. */
export interface Latch<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  done: boolean;
}

export function latch<T = void>(): Latch<T> {
  let resolve!: (value: T) => void;
  const l: Latch<T> = {
    promise: new Promise<T>((r) => (resolve = r)),
    resolve: (value) => {
      l.done = true;
      resolve(value);
    },
    done: false,
  };
  return l;
}

/** Subscribes to an agent's events and keeps them. */
export function record(agent: Agent): AgentEvent[] {
  const events: AgentEvent[] = [];
  agent.events$.subscribe((event) => events.push(event));
  return events;
}

/** Resolves with the first event that matches. */
export function nextEvent<T extends AgentEvent['type']>(
  agent: Agent,
  type: T,
  match: (e: Extract<AgentEvent, { type: T }>) => boolean = () => true,
): Promise<Extract<AgentEvent, { type: T }>> {
  return new Promise((resolve) => {
    const sub = agent.events$.subscribe((event) => {
      if (event.type === type && match(event as Extract<AgentEvent, { type: T }>)) {
        queueMicrotask(() => sub.unsubscribe());
        resolve(event as Extract<AgentEvent, { type: T }>);
      }
    });
  });
}

/** An agent over a scripted provider. */
export function scriptedAgent(script: ScriptStep[], options: Partial<AgentOptions> = {}): Agent {
  return new Agent({ provider: createScriptedProvider(script, { chunkSize: 4 }), model: 'test', permissions: ALLOW, ...options });
}

/** A tool that returns its `text` argument. */
export function echoTool(overrides: Partial<Tool> = {}): Tool {
  return {
    name: 'echo',
    description: 'Echoes text.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    readOnly: true,
    execute: (args) => ({ content: String(args['text']) }),
    ...overrides,
  };
}

/** A tool whose calls block until released; records the signals they saw. */
export function blockingTool(name = 'block', options: { readOnly?: boolean; ignoreAbort?: boolean } = {}) {
  const started: ToolContext[] = [];
  const releases = new Map<string, (result: ToolResult) => void>();
  const startedLatch = latch();
  const tool: Tool = {
    name,
    description: 'Blocks until released.',
    parameters: { type: 'object', properties: {} },
    readOnly: options.readOnly ?? false,
    execute: (_args, ctx) =>
      new Promise<ToolResult>((resolve) => {
        started.push(ctx);
        releases.set(ctx.toolCallId, resolve);
        if (options.ignoreAbort !== true) ctx.signal.addEventListener('abort', () => resolve({ content: 'aborted by signal', isError: true }));
        startedLatch.resolve();
      }),
  };
  return {
    tool,
    started,
    firstStarted: startedLatch.promise,
    release(callId: string, content = `${name} done`) {
      releases.get(callId)?.({ content });
    },
  };
}

/** The events' types in order, with state names inlined (`state:thinking`). */
export function typesOf(events: AgentEvent[]): string[] {
  return events.map((e) => (e.type === 'state' ? `state:${e.state}` : e.type));
}

/** Messages without timestamps, for comparing histories across runs. */
export function stripTimestamps<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'timestamp' ? undefined : v))) as T;
}
