import type { AgentPath, RunId, ToolContext } from '@troupe/core';

/** A minimal tool context for calling `execute` directly in tests. */
export function testToolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    toolCallId: 'call_1',
    runId: 'run_test' as RunId,
    agentPath: 'agent' as AgentPath,
    sessionId: 'ses_test',
    signal: new AbortController().signal,
    update: () => undefined,
    progress: () => undefined,
    ...overrides,
  };
}
