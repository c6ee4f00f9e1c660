/**
 * The run store contract (see src/testing/run-store-contract.ts) holds for the in-memory run store.
 */
import { createMemoryRunStore } from '../../src/index.js';
import { runStoreContract } from '../../src/testing.js';

runStoreContract('memory', async () => ({ store: createMemoryRunStore() }));
