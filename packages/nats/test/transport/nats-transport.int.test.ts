/**
 * The transport contract (see `@troupe/runtime/testing`, testing/transport-contract.ts there) holds
 * for the NATS transport, on a real nats-server: every actor is placed on a worker (a real
 * `startWorker` over its own connection), events, results and control travel over NATS, and the
 * restore case goes through KV.
 */
import { afterAll, beforeAll } from 'vitest';
import { graphActorFactory } from '@troupe/runtime';
import { connectNats, createNatsRunStore, createNatsTransport, graphHash, openNatsResources, startWorker, type NatsResources } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';
import { transportContract } from '@troupe/runtime/testing';

let server: NatsServerProcess;
let resources: NatsResources;
let workerResources: NatsResources;

beforeAll(async () => {
  server = await startNatsServer();
  resources = await openNatsResources(await connectNats({ servers: server.url }), { namespace: 'contract' });
  workerResources = await openNatsResources(await connectNats({ servers: server.url }), { namespace: 'contract' });
});

afterAll(async () => {
  await resources?.nc.close();
  await workerResources?.nc.close();
  await server?.stop();
});

transportContract(
  'nats',
  async (graph, store, tools) => {
    const worker = await startWorker({ resources: workerResources, graph, tools, ackWaitMs: 5000 });
    const transport = createNatsTransport({
      resources,
      store,
      factory: graphActorFactory(graph, { store, tools, sleep: () => Promise.resolve() }),
      graphHash: graphHash(graph),
      placement: () => 'remote',
    });
    return {
      transport,
      close: async () => {
        await transport.close();
        await worker.stop(0);
      },
    };
  },
  async () => createNatsRunStore(resources),
);
