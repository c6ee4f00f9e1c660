import type { AgentPath, RunId, ToolContext } from '@troupe/core';

/** A tool context for calling `execute` directly, recording progress lines. */
export function testToolContext(overrides: Partial<ToolContext> = {}): ToolContext & { progressLines: string[] } {
  const progressLines: string[] = [];
  return {
    toolCallId: 'call_1',
    runId: 'run_test' as RunId,
    agentPath: 'agent' as AgentPath,
    sessionId: 'ses_test',
    signal: new AbortController().signal,
    update: () => undefined,
    progress: (text) => progressLines.push(text),
    progressLines,
    ...overrides,
  };
}
