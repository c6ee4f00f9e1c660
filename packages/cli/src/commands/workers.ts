import type { WorkerLoad } from '@troupe/nats';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import type { NatsFlags } from '../nats/nats-flags.js';
import { withNatsSession } from '../nats/nats-session.js';
import { table } from '../view/table.js';

/**
 * `troupe workers --nats <url>`: the live workers of the namespace (NATS service discovery), one
 * row each: id, agents, running/capacity, tasks taken, ended, parked (put aside waiting for a
 * user), dead-lettered, and the fingerprint of the graph it runs. `--json`: one JSON object per
 * worker. No worker running is said on stderr with the command that starts one, exit 0.
 */
export function workersCommand(options: { nats: NatsFlags; json?: boolean }, io: CliIo): Promise<ExitCode> {
  return withNatsSession(options.nats, io, 'workers', async (session) => {
    const workers = await session.nats.listWorkers(session.resources.nc, session.target.namespace);
    if (options.json === true) {
      for (const worker of workers) io.stdout(`${JSON.stringify(worker)}\n`);
      return ExitCode.Ok;
    }
    if (workers.length === 0) {
      io.stderr(
        `no workers in namespace "${session.target.namespace}" on ${session.target.display}; start one with: troupe worker <graph.yaml> ${session.target.flags}\n`,
      );
      return ExitCode.Ok;
    }
    io.stdout(table(['WORKER', 'AGENTS', 'RUNNING', 'TAKEN', 'ENDED', 'PARKED', 'DEAD', 'GRAPH'], workers.map(row)));
    return ExitCode.Ok;
  });
}

function row(worker: WorkerLoad): string[] {
  return [
    worker.id,
    worker.agents.join(','),
    `${worker.running}/${worker.capacity}`,
    String(worker.taken),
    String(worker.ended),
    String(worker.parked),
    String(worker.deadLettered),
    worker.graph,
  ];
}
