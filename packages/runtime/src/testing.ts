export { askTool, delegate, finished, testGraph, untilWaiting } from './testing/graph-builder.js';
export { runStoreContract } from './testing/run-store-contract.js';
export { transportContract } from './testing/transport-contract.js';

export type { TestAgent } from './testing/graph-builder.js';
export type { MakeRunStore, RunStoreSetup } from './testing/run-store-contract.js';
export type { MakeTransport, TransportSetup } from './testing/transport-contract.js';
