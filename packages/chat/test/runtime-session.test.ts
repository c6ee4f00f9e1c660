/**
 * A chat hosted by the runtime is one recorded run: its first message starts the run, later ones
 * prompt the same actor (one history, one run id), the record's status follows each turn, plan
 * mode offers the entry only its read-only tools, and a resumed chat replays the earlier events
 * and goes on in the same conversation. `switchModel` changes the hosted entry's model for its
 * next run (before the first message too), and refuses a model it cannot use, changing nothing;
 * the switch is kept in the run's record, so a resumed conversation goes on with it (or says why
 * it cannot).
 */
import { firstValueFrom, filter } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createMemoryRunStore, parseGraph, type GraphConfig, type RunStore } from '@troupe/runtime';
import { defaultChatGraph, modelFromEnv, openRuntimeChat, OFFLINE_NOTE, type ChatSession } from '../src/index.js';

const GRAPH = `version: 1
models:
  coder:
    model: scripted
    contextWindow: 4000
    script:
      - text: First answer.
      - text: Second answer.
      - text: Third answer.
agents:
  coder:
    model: coder
    tools: [read_file, write_file]
entry: coder
`;

/** Sends `text` and resolves once the entry's run has ended. */
async function turn(session: ChatSession, text: string): Promise<void> {
  const ended = firstValueFrom(session.events$.pipe(filter((e) => e.type === 'agent_end' && e.agentPath === session.entry)));
  await session.send(text);
  await ended;
}

describe('openRuntimeChat', () => {
  it('records the conversation as one run, and goes on with it when resumed', async () => {
    const graph = await parseGraph(GRAPH, { file: '/tmp/chat-test.yaml', env: {} });
    const store = createMemoryRunStore();
    const session = await openRuntimeChat({ graph, store, graphFile: '/tmp/chat-test.yaml' });
    expect(session).toMatchObject({ entry: 'coder', model: 'scripted:default', contextWindow: 4000 });
    expect(session.toolNames()).toEqual(['read_file', 'write_file']);
    session.setMode('plan');
    expect(session.toolNames()).toEqual(['read_file']);
    session.setMode('execute');

    await turn(session, 'one');
    await turn(session, 'two');
    const runId = session.runId as string;
    // The record's updates are written in the background; close waits for them.
    await session.close();
    expect(await store.getRun(runId as never)).toMatchObject({ status: 'done', entry: 'coder', input: 'one', graphFile: '/tmp/chat-test.yaml' });

    const resumed = await openRuntimeChat({ graph, store, resume: runId });
    expect(resumed.runId).toBe(runId);
    const replies = resumed.earlier.filter((e) => e.type === 'message_end' && e.role === 'assistant');
    expect(replies).toHaveLength(2);
    const third = firstValueFrom(resumed.events$.pipe(filter((e) => e.type === 'agent_end')));
    await resumed.send('three');
    const end = await third;
    expect(end.type === 'agent_end' && end.result.text).toBe('Third answer.');
    expect(end.type === 'agent_end' && end.result.messages.length).toBeGreaterThan(0);
    await resumed.close();
    expect(await store.getRun(runId as never)).toMatchObject({ status: 'done' });
  });

  it('refuses to resume a run the store does not have', async () => {
    const graph = await parseGraph(GRAPH, { file: '/tmp/chat-test.yaml', env: {} });
    await expect(openRuntimeChat({ graph, store: createMemoryRunStore(), resume: 'run_nothere' })).rejects.toThrow(/no run run_nothere/);
  });
});

const TWO_MODELS = `version: 1
models:
  main:
    model: scripted:main
    contextWindow: 4000
    script:
      - text: Main one.
      - text: Main two.
  fast:
    model: scripted:fast
    contextWindow: 8000
    script:
      - text: Fast one.
      - text: Fast two.
agents:
  coder:
    model: main
    tools: []
entry: coder
`;

describe('switching the model', () => {
  it('switches the hosted entry for its next run, in the same conversation', async () => {
    const graph = await parseGraph(TWO_MODELS, { file: '/tmp/chat-models.yaml', env: {} });
    const store = createMemoryRunStore();
    const session = await openRuntimeChat({ graph, store, build: { env: {} } });
    expect(session).toMatchObject({ model: 'scripted:main', contextWindow: 4000 });
    await turn(session, 'one');

    await expect(session.switchModel('nope:x')).rejects.toThrow(/unknown provider "nope"/);
    await expect(session.switchModel('anthropic:claude-sonnet-4-5')).rejects.toThrow(/ANTHROPIC_API_KEY/);
    await expect(session.switchModel('scripted:other')).rejects.toThrow(/needs a script/);
    expect(session.model).toBe('scripted:main');

    expect(await session.switchModel('fast')).toEqual({ model: 'scripted:fast', contextWindow: 8000 });
    expect(session).toMatchObject({ model: 'scripted:fast', contextWindow: 8000 });
    const ended = firstValueFrom(session.events$.pipe(filter((e) => e.type === 'agent_end' && e.agentPath === session.entry)));
    await session.send('two');
    const end = await ended;
    expect(end.type === 'agent_end' && end.result.text).toBe('Fast one.');
    const runId = session.runId as string;
    await session.close();
    // One run: both turns are in its record.
    const replies = (await store.readEvents(runId as never)).filter((e) => e.type === 'message_end' && e.role === 'assistant');
    expect(replies.map((e) => (e.type === 'message_end' && e.message?.role === 'assistant' ? e.message.model : undefined))).toEqual([
      'scripted:main',
      'scripted:fast',
    ]);
  });

  it('builds the entry on the switched model when the switch comes before the first message', async () => {
    const graph = await parseGraph(TWO_MODELS, { file: '/tmp/chat-models.yaml', env: {} });
    const session = await openRuntimeChat({ graph, store: createMemoryRunStore(), build: { env: {} } });
    await session.switchModel('fast');
    const ended = firstValueFrom(session.events$.pipe(filter((e) => e.type === 'agent_end')));
    await session.send('hi');
    const end = await ended;
    expect(end.type === 'agent_end' && end.result.text).toBe('Fast one.');
    await session.close();
  });
});

/** The models of the entry's replies in `runId`'s recorded events, in order. */
async function replyModels(store: RunStore, runId: string): Promise<(string | undefined)[]> {
  const events = await store.readEvents(runId as never);
  return events.flatMap((e) => (e.type === 'message_end' && e.message?.role === 'assistant' ? [e.message.model] : []));
}

/** A conversation of TWO_MODELS switched to `fast` and then one turn (`switchedFirst`: before its first message), closed. */
async function switchedConversation(switchedFirst = false): Promise<{ graph: GraphConfig; store: RunStore; runId: string }> {
  const graph = await parseGraph(TWO_MODELS, { file: '/tmp/chat-models.yaml', env: {} });
  const store = createMemoryRunStore();
  const session = await openRuntimeChat({ graph, store, build: { env: {} } });
  if (!switchedFirst) await turn(session, 'one');
  await session.switchModel(switchedFirst ? ' fast ' : 'fast');
  await turn(session, switchedFirst ? 'one' : 'two');
  await session.close();
  return { graph, store, runId: session.runId as string };
}

describe('a switched model and a resumed conversation', () => {
  it('goes on with the model the conversation was switched to', async () => {
    const { graph, store, runId } = await switchedConversation();
    expect(await store.getRun(runId as never)).toMatchObject({ model: 'fast' });

    const resumed = await openRuntimeChat({ graph, store, build: { env: {} }, resume: runId });
    expect(resumed).toMatchObject({ model: 'scripted:fast', contextWindow: 8000 });
    expect(resumed.note).toBeUndefined();
    await turn(resumed, 'three');
    await resumed.close();
    expect(await replyModels(store, runId)).toEqual(['scripted:main', 'scripted:fast', 'scripted:fast']);
  });

  it('keeps a switch made before the first message', async () => {
    const { store, runId } = await switchedConversation(true);
    expect(await store.getRun(runId as never)).toMatchObject({ model: 'fast' });
  });

  it('takes the model chosen on the command line over the one the conversation was on, and keeps it', async () => {
    const { graph, store, runId } = await switchedConversation();

    // As `troupe chat --resume <id> --model main` does: the graph already runs the entry on `main`.
    const resumed = await openRuntimeChat({ graph, store, build: { env: {} }, resume: runId, model: 'main' });
    expect(resumed.model).toBe('scripted:main');
    await turn(resumed, 'two');
    await resumed.close();
    expect(await store.getRun(runId as never)).toMatchObject({ model: 'main' });
    expect(await replyModels(store, runId)).toEqual(['scripted:main', 'scripted:fast', 'scripted:main']);
  });

  it('goes on with the graph model, and says so, when the switched one is gone', async () => {
    const { store, runId } = await switchedConversation();

    // The graph file changed since: it has no model `fast` any more.
    const changed = await parseGraph(TWO_MODELS.slice(0, TWO_MODELS.indexOf('  fast:')) + TWO_MODELS.slice(TWO_MODELS.indexOf('agents:')), {
      file: '/tmp/chat-models.yaml',
      env: {},
    });
    expect(Object.keys(changed.models)).toEqual(['main']);
    const resumed = await openRuntimeChat({ graph: changed, store, build: { env: {} }, resume: runId });
    expect(resumed.model).toBe('scripted:main');
    expect(resumed.note).toBe('This conversation was on fast, which is not available now (the graph has no model fast now): going on with scripted:main.');
    await turn(resumed, 'two');
    await resumed.close();
    expect(await replyModels(store, runId)).toEqual(['scripted:main', 'scripted:fast', 'scripted:main']);
  });
});

describe('the built-in assistant', () => {
  it('takes its model from the environment, or the scripted model with a note', async () => {
    expect(modelFromEnv({})).toBeUndefined();
    expect(modelFromEnv({ OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k' })).toBe('openai:gpt-4.1-mini');
    expect(modelFromEnv({ ANTHROPIC_API_KEY: 'k', TROUPE_MODEL: 'ollama:qwen3' })).toBe('ollama:qwen3');
    const graph = await defaultChatGraph({ cwd: '/tmp', env: {} });
    expect(graph.entry).toBe('assistant');
    expect(graph.agents['assistant']?.tools).toEqual(['read_file', 'list_files', 'search', 'edit_file', 'write_file', 'bash']);
    const session = await openRuntimeChat({ graph, store: createMemoryRunStore(), note: OFFLINE_NOTE });
    const ended = firstValueFrom(session.events$.pipe(filter((e) => e.type === 'agent_end')));
    await session.send('hi');
    const end = await ended;
    expect(end.type === 'agent_end' && end.result.text).toBe(OFFLINE_NOTE);
    await session.close();
  });
});
