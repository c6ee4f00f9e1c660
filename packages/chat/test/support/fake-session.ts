import type { AgentEvent, PermissionDecision } from '@troupe/core';
import { Subject } from 'rxjs';
import type { ChatMode, ChatSession } from '../../src/index.js';

/** A chat session whose events the test emits, recording what the UI asked of it. */
export interface FakeSession extends ChatSession {
  readonly emit: (event: AgentEvent) => void;
  readonly sent: string[];
  readonly approvals: { callId: string; decision: PermissionDecision; path: string }[];
  readonly modes: ChatMode[];
  aborts: number;
}

export function fakeSession(options: { contextWindow?: number } = {}): FakeSession {
  const events = new Subject<AgentEvent>();
  const session: FakeSession = {
    entry: 'assistant',
    model: 'scripted:test',
    contextWindow: options.contextWindow,
    runId: undefined,
    events$: events.asObservable(),
    earlier: [],
    emit: (event) => events.next(event),
    sent: [],
    approvals: [],
    modes: [],
    aborts: 0,
    async send(text) {
      session.sent.push(text);
    },
    async abort() {
      session.aborts += 1;
    },
    async approve(callId, decision, path) {
      session.approvals.push({ callId, decision, path });
    },
    async reply() {},
    setMode(mode) {
      session.modes.push(mode);
    },
    toolNames: () => ['read_file', 'write_file'],
    async switchModel(name) {
      return { model: name, contextWindow: options.contextWindow };
    },
    async close() {},
  };
  return session;
}
