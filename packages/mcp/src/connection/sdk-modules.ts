import type { openSession } from './open-session.js';
import type { isRequestTimeout, newSdkClient } from './sdk-client.js';

/** The parts of this adapter that run on the MCP SDK, loaded together with the SDK. */
export interface SdkModules {
  openSession: typeof openSession;
  newSdkClient: typeof newSdkClient;
  isRequestTimeout: typeof isRequestTimeout;
}

let loading: Promise<SdkModules> | undefined;

/**
 * Loads the MCP SDK with the first connection, not with this package: the runtime imports the
 * package for every graph (its tool selectors and config names), and the SDK with its zod schemas
 * is about 25 MB of memory and 0.3 s of start-up that a graph without MCP servers never needs.
 */
export function loadSdk(): Promise<SdkModules> {
  loading ??= Promise.all([import('./open-session.js'), import('./sdk-client.js')]).then(([session, client]) => ({
    openSession: session.openSession,
    newSdkClient: client.newSdkClient,
    isRequestTimeout: client.isRequestTimeout,
  }));
  return loading;
}
