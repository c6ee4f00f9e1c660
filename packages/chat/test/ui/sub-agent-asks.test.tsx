/**
 * A sub-agent's question and permission request, answered in the chat: the entry (`lead`)
 * delegates to `helper`, which asks the user a question and then needs approval to write a file.
 * The chat shows each with the child's path (`lead/helper#1`), the answer and the approval reach
 * that child (its ask_user result is the answer, its file is written), and the lead's reply carries
 * the child's outcome. Hosted by the runtime, as `troupe chat` does.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '@troupe/core';
import { createMemoryRunStore, parseGraph } from '@troupe/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { openRuntimeChat, type ChatSession } from '../../src/index.js';
import { KEY, renderChat } from '../support/render-chat.js';

const graphText = (workspace: string) => `version: 1
models:
  lead:
    model: scripted:lead
    script:
      - toolCalls:
          - name: delegate_to_helper
            arguments: { task: write the note }
      - text: "Lead: {{lastToolResult}}"
  helper:
    model: scripted:helper
    script:
      - toolCalls:
          - name: ask_user
            arguments: { question: Which title? }
      - toolCalls:
          - name: write_file
            arguments: { path: note.txt, content: a note }
      - text: wrote the note
agents:
  lead:
    model: lead
    tools: []
    delegates: [helper]
  helper:
    model: helper
    tools: [ask_user, write_file]
    workspace: ${workspace}
entry: lead
`;

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => cleanup?.());

describe("a sub-agent's asks", () => {
  it('show the child path, and the answer and the approval reach the child', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'troupe-chat-subagent-'));
    const graph = await parseGraph(graphText(workspace), { file: join(workspace, 'graph.yaml'), env: {} });
    const session: ChatSession = await openRuntimeChat({ graph, store: createMemoryRunStore(), build: { env: {} } });
    const events: AgentEvent[] = [];
    const sub = session.events$.subscribe((event) => events.push(event));
    const chat = renderChat(session);
    cleanup = async () => {
      chat.unmount();
      sub.unsubscribe();
      await session.close();
    };

    await chat.type(...'write a note', KEY.enter);
    const asked = await chat.shows('? lead/helper#1 · Which title?  (type the answer, Enter sends)');
    expect(asked).toContain('answer › ');
    await chat.type(...'Groceries', KEY.enter);

    const permission = await chat.shows('? lead/helper#1 · Allow write_file note.txt?');
    expect(permission).toContain('[y] allow once');
    // The write waits for the user, shown as the child's block.
    expect(permission).toContain('lead/helper#1 write_file(note.txt) [approval]');
    expect(existsSync(join(workspace, 'note.txt'))).toBe(false);
    await chat.type('y');

    const done = await chat.shows('Lead: wrote the note');
    expect(done).not.toContain('Allow write_file');
    expect(readFileSync(join(workspace, 'note.txt'), 'utf8')).toBe('a note');
    // The answer reached the child: it is the result of the child's ask_user call.
    const answer = events.find((e) => e.type === 'tool_end' && e.toolName === 'ask_user');
    expect(answer?.agentPath).toBe('lead/helper#1');
    expect(answer?.type === 'tool_end' && JSON.stringify(answer.result.content)).toContain('Groceries');
  });
});
