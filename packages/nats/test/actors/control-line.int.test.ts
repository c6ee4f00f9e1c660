/**
 * A command sent to an actor's control subject as its host stops listening is not lost, on a real
 * nats-server: a host that lets the actor go says it moved, so the sender deals with it from the
 * actor's record (`UnhostedControl`) instead of timing out. Two windows are covered: a command that
 * waited for the host to attach (a claim given up), and one already routed to the host when it
 * stopped listening (nats-server delivers it after the host unsubscribed locally). The contract's
 * "suspends on a question and resumes on a reply" timed out so under load: the reply met the
 * worker setting its actor aside. A host that hears and never answers fails the command with a
 * typed `control_timeout`, not nats.js's bare `TimeoutError`.
 */
import { parseAgentPath, parseRunId } from '@troupe/core';
import type { ControlCommand } from '@troupe/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlLine } from '../../src/actors/control-line.js';
import { connectNats, openNatsResources, type NatsResources } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';

let server: NatsServerProcess;
let resources: NatsResources;

beforeAll(async () => {
  server = await startNatsServer();
  resources = await openNatsResources(await connectNats({ servers: server.url }), { namespace: 'control-line' });
});

afterAll(async () => {
  await resources?.nc.close();
  await server?.stop();
});

const runId = parseRunId('run_control_line');
const path = parseAgentPath('asker');
const reply: ControlCommand = { type: 'reply', answer: 'yes' };

/** A line whose unhosted control takes every command, and the commands it took. */
function lineTakingUnhosted(controlTimeoutMs = 2000): { line: ControlLine; unhosted: ControlCommand[] } {
  const unhosted: ControlCommand[] = [];
  const line = new ControlLine({
    resources,
    controlTimeoutMs,
    unhosted: {
      control: async (_runId, _path, command) => {
        unhosted.push(command);
        return true;
      },
    },
  });
  return { line, unhosted };
}

describe('ControlLine', () => {
  it('hands a command that waited for the host to attach to the unhosted control when the host gives the actor up', async () => {
    const { line, unhosted } = lineTakingUnhosted();
    const listener = line.listen(runId, path);
    const sent = line.send(runId, path, reply);
    // The host answers probes while it settles its claim: once one is answered, the command before it waits too.
    await expect(line.answers(runId, path, 1000)).resolves.toBe(true);
    listener.close();
    await sent;
    expect(unhosted).toEqual([reply]);
  });

  it('hands a command routed to the host as it stopped listening to the unhosted control', async () => {
    const { line, unhosted } = lineTakingUnhosted();
    const applied: ControlCommand[] = [];
    const listener = line.listen(runId, path);
    listener.attach((command) => applied.push(command));
    await resources.nc.flush();
    // On one connection, the request goes out before the host stops listening: nats-server routes
    // it to the subscription, and the message comes back after the host let go of it locally.
    const sent = line.send(runId, path, reply);
    listener.close();
    await sent;
    expect(applied).toEqual([]);
    expect(unhosted).toEqual([reply]);
  });

  it('answers a probe after the host let the actor go as nobody hosting it', async () => {
    const { line } = lineTakingUnhosted();
    const listener = line.listen(runId, path);
    listener.attach(() => undefined);
    await resources.nc.flush();
    const probed = line.answers(runId, path, 1000);
    listener.close();
    await expect(probed).resolves.toBe(false);
    await expect(line.hostedOrSilent(runId, path)).resolves.toBe(false);
  });

  it('fails a command whose host stays silent with a typed control_timeout that says it may have been applied', async () => {
    const { line, unhosted } = lineTakingUnhosted(200);
    // A host that hears but never answers (busy, or a process gone whose subscription nats-server still keeps).
    const silent = resources.nc.subscribe(resources.names.controlSubject(runId, path));
    await resources.nc.flush();
    try {
      const failure = line.send(runId, path, reply);
      await expect(failure).rejects.toMatchObject({ code: 'control_timeout', data: { runId, path, command: 'reply', timeoutMs: 200 } });
      await expect(failure).rejects.toThrow(/did not answer the reply within 200 ms .* may or may not have been applied/);
      expect(unhosted).toEqual([]);
    } finally {
      silent.unsubscribe();
    }
  });
});
