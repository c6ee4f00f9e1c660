/**
 * What the `troupe steer` tests of local and distributed runs share, not a test: the same steps
 * on a run of steered.yaml whose bash call waits on its FIFO, whatever reaches the run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { spawnTroupe, type RunningTroupe } from '../spawn-troupe.js';

/**
 * Steers an actor that is not there (refused, naming the one that runs), then the run's entry
 * (`Wrap up.`); opens the gate and waits for the run to finish; then steers it again (refused:
 * it has ended). `flags` reach the run's store.
 */
export async function steerToTheEnd(run: RunningTroupe, id: string, workspace: string, flags: readonly string[]): Promise<void> {
  const wrong = await spawnTroupe(['steer', id, 'worker/nobody#1', 'Wrap up.', ...flags]);
  expect(wrong.stderr).toBe(`troupe steer: no actor worker/nobody#1 in run ${id}; running: worker\n`);
  expect(wrong.code).toBe(2);
  const steered = await spawnTroupe(['steer', id, 'Wrap up.', ...flags]);
  expect(steered.stdout).toBe(`steered worker of run ${id}\n`);
  expect(steered.code).toBe(0);

  writeFileSync(join(workspace, 'gate'), 'open\n');
  const ended = await run.exited;
  expect(ended.stdout).toBe('Gate said: open\n');
  expect(ended.code).toBe(0);

  const late = await spawnTroupe(['steer', id, 'Again.', ...flags]);
  expect(late.stderr).toBe(`troupe steer: run ${id} has ended (done): there is nothing to steer\n`);
  expect(late.code).toBe(2);
}
