/**
 * A question outlives the process that started the run: `troupe run --nats --remote-all` (lead and
 * asker on two `troupe worker` processes) is SIGKILLed while the asker is still thinking, so the
 * run reaches its question with no coordinator left and nothing handed over. After a pause of
 * several ack waits, `troupe reply <runId> <path> <answer> --nats` from another process wakes the
 * asker on a worker, and follows the run to its end on the workers: exit 0 with the lead's answer,
 * and the run recorded as done.
 *
 * The coordinator is killed before the question rather than at it: without a terminal, `troupe
 * run` leaves by itself (exit 3) as soon as the run waits, so only a kill before leaves it no
 * chance to do anything.
 *
 * Pins down (about one run in five before the fix): when the worker hosting the lead took the
 * asker's task itself, the lead waited on that hosted agent, which the worker disposed of when it
 * put the asker aside; the asker woken by the reply was another agent, and the lead never heard.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { actorRecord, useFaultRig } from './fault-rig.js';

const GRAPH = 'faults/durable-question.yaml';
const ACK_WAIT_MS = 1000;

const startRig = useFaultRig();

describe('a question after the coordinator died', () => {
  it('is answered later from another process, and the run finishes on the workers', { timeout: 120_000 }, async () => {
    const faults = await startRig();
    await faults.workers(GRAPH, ['w1', 'w2'], ['--ack-wait', String(ACK_WAIT_MS)]);
    const { run, runId } = await faults.startRun(GRAPH, ['--remote-all']);
    await run.matching('stderr', /\[lead\/asker#1\] thinking/);
    run.child.kill('SIGKILL');
    expect((await run.exited).signal).toBe('SIGKILL');

    // Nobody follows the run any more; it reaches its question, and the asker is put aside waiting.
    await vi.waitFor(async () => expect(await actorRecord(faults, runId, 'lead/asker#1')).toMatchObject({ status: 'waiting' }), {
      timeout: 30_000,
      interval: 200,
    });
    // The pause: several ack waits go by with only the workers holding the run.
    await sleep(3 * ACK_WAIT_MS);

    const replied = await faults.run(['reply', runId, 'lead/asker#1', 'Lisbon', ...faults.nats]);
    expect(replied.stdout).toBe('Lead heard: City Lisbon\n');
    expect(replied.stderr).toMatch(/\n✓ done · /);
    expect(replied.code).toBe(0);

    const runs = await faults.run(['runs', '--json', ...faults.nats]);
    expect(runs.code).toBe(0);
    expect(JSON.parse(runs.stdout.trim())).toMatchObject({ id: runId, status: 'done', stopReason: 'stop' });
    expect(await actorRecord(faults, runId, 'lead')).toMatchObject({ status: 'ended', result: { text: 'Lead heard: City Lisbon' } });
  });
});
