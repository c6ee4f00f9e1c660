/**
 * A worker process for the remote benchmarks (started by remote-delegation.js, not by hand): hosts
 * the delegation graph's agents from the task queue, and answers raw requests on
 * `bench.<ns>.echo` for the request/reply baseline. Prints `ready` once both are up.
 *
 *   node dist/bench-worker.js --url nats://127.0.0.1:PORT --ns NAME --turns N --per-turn K [--helper-model-ms M] [--concurrency C]
 */
import { connectNats, openNatsResources, startWorker } from '@troupe/nats';
import { delegationGraph } from './bench-graph.js';
import { numberArg, stringArg } from './measure.js';

const resources = await openNatsResources(await connectNats({ servers: stringArg('url') }), { namespace: stringArg('ns') });
const graph = delegationGraph({
  turns: numberArg('turns', 1),
  perTurn: numberArg('per-turn', 1),
  helperPlacement: 'remote',
  helperModelMs: numberArg('helper-model-ms', 0),
});
const worker = await startWorker({ resources, graph, concurrency: numberArg('concurrency', 64) });
resources.nc.subscribe(`bench.${resources.names.namespace}.echo`, { callback: (error, msg) => void (error === null && msg.respond(msg.data)) });
await resources.nc.flush();
process.stdout.write('ready\n');
// The benchmark holds our stdin open while it lives: when it ends, the benchmark is gone, even if it was killed.
process.stdin.on('end', () => process.exit(0)).resume();
process.on('SIGTERM', () => {
  void worker
    .stop(0)
    .then(() => resources.nc.close())
    .then(() => process.exit(0));
});
