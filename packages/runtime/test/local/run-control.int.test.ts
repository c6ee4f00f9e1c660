/**
 * The control socket of a run, with a real runtime, a real Unix domain socket and a real client:
 * a steering message sent over it reaches the running actor (it enters its conversation once the
 * running tool has finished, before the next model call), a steer to an actor that is not there is answered with the
 * reason and the actors that run, an abort is answered at once and then with how the run ended,
 * a follow-up is taken once the actor has answered, one actor below the entry is aborted while the
 * run goes on, and the socket is gone once the run has ended, also when the run's directory is too deep for a
 * socket address (the socket then lives in the temporary directory, linked from the run's folder).
 */
import { existsSync, lstatSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textOf, type AgentEvent } from '@troupe/core';
import { createToolRegistry, type ToolFactory } from '@troupe/tools';
import { describe, expect, it } from 'vitest';
import { connectRunControl, createFileRunStore, createRuntime, runDirOf, serveRunControl, type RunHandle } from '../../src/index.js';
import { delegate, testGraph } from '../../src/testing.js';

/** Lets the running `hold` call finish (set per run). */
let release: () => void = () => undefined;
/** A tool that runs until the test releases it, or its call is cancelled. */
const holdTool: ToolFactory = {
  name: 'hold',
  description: 'Holds.',
  create: () => ({
    name: 'hold',
    description: 'Runs until released.',
    parameters: { type: 'object', properties: {} },
    execute: (_args, ctx) =>
      new Promise((resolve) => {
        release = () => resolve({ content: 'released' });
        ctx.signal.addEventListener('abort', () => resolve({ content: 'cancelled' }), { once: true });
      }),
  }),
};
const tools = createToolRegistry({ factories: [holdTool] });
const holder = {
  tools: ['hold'],
  permissions: { mode: 'allow' as const },
  // The third answer is only asked for by a follow-up.
  script: [{ toolCalls: [{ name: 'hold' }] }, { text: 'After: {{lastToolResult}}' }, { text: 'Followed up.' }],
};
const graph = testGraph({ holder });
/** A lead whose delegate holds: a run with an actor below the entry. */
const team = testGraph({ lead: { delegates: ['holder'], script: [{ toolCalls: [delegate('holder', 'Hold.')] }, { text: 'Lead heard.' }] }, holder });

/** Starts a run of `graph` (default: the holder alone) under `runsDir`, serving its control socket; resolves once the hold tool runs. */
async function holding(runsDir: string, of = graph): Promise<{ run: RunHandle; runDir: string; events: AgentEvent[] }> {
  const runtime = createRuntime({ graph: of, tools, store: createFileRunStore(runsDir) });
  const run = runtime.run('go');
  const events: AgentEvent[] = [];
  const holds = new Promise<void>((resolve) =>
    run.events$.subscribe((event) => {
      events.push(event);
      if (event.type === 'tool_start' && event.toolName === 'hold') resolve();
    }),
  );
  const runDir = runDirOf(runsDir, run.id);
  await serveRunControl(run, { runDir });
  await holds;
  return { run, runDir, events };
}

describe('the control socket of a run', () => {
  it('steers the running actor, and says why it cannot steer one that is not there', async () => {
    const { run, runDir, events } = await holding(mkdtempSync(join(tmpdir(), 'troupe-ctl-')));
    expect(lstatSync(join(runDir, 'control.sock')).isSocket()).toBe(true);
    const control = await connectRunControl(runDir);
    expect(control).toBeDefined();
    expect(await control!.request({ type: 'steer', message: 'wrap up', path: 'holder/nobody#1' })).toEqual({
      ok: false,
      error: { code: 'unknown_actor', message: `no actor holder/nobody#1 in run ${run.id}; running: holder` },
    });
    expect(await control!.request({ type: 'steer', message: 'wrap up' })).toEqual({ ok: true });
    release();
    const result = await run.result;
    expect(result).toMatchObject({ status: 'done', text: 'After: released' });
    // The steering message entered the conversation after the tool's result, before the next model call.
    const conversation = result.agent?.messages.map((message) => `${message.role}: ${message.role === 'assistant' ? '' : textOf(message)}`);
    expect(conversation).toEqual(['user: go', 'assistant: ', 'toolResult: released', 'user: wrap up', 'assistant: ']);
    expect(events.filter((event) => event.type === 'turn_start')).toHaveLength(2);
    expect(await control!.ended).toBeUndefined();
    expect(existsSync(join(runDir, 'control.sock'))).toBe(false);
    expect(await connectRunControl(runDir)).toBeUndefined();
  });

  it('aborts the run and then says how it ended; a deep run folder links to a short socket', async () => {
    const deep = join(mkdtempSync(join(tmpdir(), 'troupe-ctl-')), 'a-folder-deep-enough'.repeat(3), 'that-a-socket-address'.repeat(2));
    const { run, runDir } = await holding(deep);
    const link = join(runDir, 'control.sock');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const control = await connectRunControl(runDir);
    expect(await control!.request({ type: 'abort' })).toEqual({ ok: true });
    expect(await control!.ended).toEqual({ status: 'aborted', stopReason: 'aborted', error: expect.objectContaining({ code: 'aborted' }) });
    expect((await run.result).status).toBe('aborted');
    expect(existsSync(link)).toBe(false);
  });

  it('queues a follow-up for the running actor, taken once it has answered', async () => {
    const { run, runDir } = await holding(mkdtempSync(join(tmpdir(), 'troupe-ctl-')));
    const control = await connectRunControl(runDir);
    expect(await control!.request({ type: 'followUp', message: 'and then?' })).toEqual({ ok: true });
    release();
    const result = await run.result;
    expect(result).toMatchObject({ status: 'done', text: 'Followed up.' });
    const conversation = result.agent?.messages.map((message) => `${message.role}: ${textOf(message)}`);
    expect(conversation).toEqual([
      'user: go',
      'assistant: ',
      'toolResult: released',
      'assistant: After: released',
      'user: and then?',
      'assistant: Followed up.',
    ]);
    control!.close();
  });

  it('aborts one actor below the entry and the run goes on; an actor that is not there is refused', async () => {
    const { run, runDir, events } = await holding(mkdtempSync(join(tmpdir(), 'troupe-ctl-')), team);
    const control = await connectRunControl(runDir);
    expect(await control!.request({ type: 'abortActor', path: 'lead/nobody#1' })).toEqual({
      ok: false,
      error: { code: 'unknown_actor', message: `no actor lead/nobody#1 in run ${run.id}; running: lead, lead/holder#1` },
    });
    expect(await control!.request({ type: 'abortActor', path: 'lead/holder#1' })).toEqual({ ok: true });
    const result = await run.result;
    expect(result).toMatchObject({ status: 'done', text: 'Lead heard.' });
    expect(events).toContainEqual(expect.objectContaining({ type: 'agent_end', agentPath: 'lead/holder#1' }));
    // Only an abort of the run is followed by how the run ended.
    expect(await control!.ended).toBeUndefined();
  });

  it('takes an abortActor at the entry for an abort of the run', async () => {
    const { run, runDir } = await holding(mkdtempSync(join(tmpdir(), 'troupe-ctl-')));
    const control = await connectRunControl(runDir);
    expect(await control!.request({ type: 'abortActor', path: run.entry })).toEqual({ ok: true });
    expect(await control!.ended).toEqual(expect.objectContaining({ status: 'aborted' }));
  });

  it('answers a malformed request with the reason', async () => {
    const { run, runDir } = await holding(mkdtempSync(join(tmpdir(), 'troupe-ctl-')));
    const control = await connectRunControl(runDir);
    expect(await control!.request({ type: 'steer', message: ' ' })).toEqual({
      ok: false,
      error: { code: 'bad_request', message: 'a steer needs a non-empty message' },
    });
    expect(await control!.request({ type: 'followUp', message: '' })).toEqual({
      ok: false,
      error: { code: 'bad_request', message: 'a followUp needs a non-empty message' },
    });
    expect(await control!.request({ type: 'abortActor', path: '' })).toEqual({
      ok: false,
      error: { code: 'bad_request', message: 'an abortActor needs the path of the actor' },
    });
    control!.close();
    await run.abort();
    await run.result;
  });
});
