/**
 * More helpers for the core tests (suspension, failures, snapshots, hooks): counting tools, a
 * provider that logs its calls, and readers of tool results. Not a test.
 */
import type { AgentEvent, Message, Provider, Tool, ToolResult, ToolResultMessage } from '../src/index.js';

/** A tool that counts its executions and answers with `result(args, callId)`. */
export function countingTool(name: string, result: (args: Record<string, unknown>, callId: string) => ToolResult = () => ({ content: `${name} done` })) {
  const calls: string[] = [];
  const tool: Tool = {
    name,
    description: `Counts its calls (${name}).`,
    parameters: { type: 'object', properties: {} },
    execute: (args, ctx) => {
      calls.push(ctx.toolCallId);
      return result(args, ctx.toolCallId);
    },
  };
  return { tool, calls };
}

/** Wraps a provider so each model call appends `entry` to `log` when it is made. */
export function loggingProvider(inner: Provider, log: string[], entry = 'model'): Provider {
  return {
    name: inner.name,
    stream(request, options) {
      log.push(entry);
      return inner.stream(request, options);
    },
  };
}

/** The tool results of a history, as `[toolCallId, text, isError]`. */
export function resultsOf(messages: readonly Message[]): Array<[string, string, boolean]> {
  return messages
    .filter((m): m is ToolResultMessage => m.role === 'toolResult')
    .map((m) => [m.toolCallId, m.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(''), m.isError]);
}

/** The events of one type. */
export function eventsOf<T extends AgentEvent['type']>(events: readonly AgentEvent[], type: T): Array<Extract<AgentEvent, { type: T }>> {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
}

/** Wraps a provider and keeps a copy of each request's messages as they were when the call was made. */
export function capturingProvider(inner: Provider): Provider & { seen: Message[][] } {
  const seen: Message[][] = [];
  return {
    name: inner.name,
    seen,
    stream(request, options) {
      seen.push([...request.messages]);
      return inner.stream(request, options);
    },
  };
}
