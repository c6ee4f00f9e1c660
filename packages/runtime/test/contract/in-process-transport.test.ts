/**
 * The transport contract (see src/testing/transport-contract.ts) holds for the in-process transport.
 */
import { createInProcessTransport, graphActorFactory } from '../../src/index.js';
import { transportContract } from '../../src/testing.js';

transportContract('in-process', async (graph, store, tools) => {
  const transport = createInProcessTransport({
    store,
    factory: graphActorFactory(graph, { store, tools, sleep: () => Promise.resolve() }),
  });
  return { transport, close: () => transport.close() };
});
