import { TroupeError } from '@troupe/core';
import { NatsErrorCode } from '../nats-error-code.js';
import type { NatsResources } from '../connection/nats-resources.js';
import type { NatsRunStore } from '../store/nats-run-store.js';
import { createNatsTransport, type NatsTransport } from './nats-transport.js';

/**
 * A transport that hosts nothing: it controls a run's actors wherever they live, reads their
 * records, and queues tasks stamped with `graph` (the graph's fingerprint; empty when it queues
 * none). What `troupe abort|steer|watch --nats` and the dashboard act on runs through.
 */
export function remoteOnlyTransport(resources: NatsResources, store: NatsRunStore, graph: string, hostId = `cli-${process.pid}`): NatsTransport {
  return createNatsTransport({ resources, store, factory: hostsNothing, graphHash: graph, placement: () => 'remote', hostId });
}

function hostsNothing(): never {
  throw new TroupeError(NatsErrorCode.HostsNothing, 'this process hosts no actor');
}
