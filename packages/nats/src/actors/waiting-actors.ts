import type { PendingAt } from '@troupe/runtime';
import type { NatsTransport } from '../transport/nats-transport.js';

/** An actor record of a distributed run, with its path and the revision it was read at. */
export type StoredActorRecord = Awaited<ReturnType<NatsTransport['records']['list']>>[number];

/** The actors whose records say they wait for a user, with what for. */
export function waitingOf(records: readonly StoredActorRecord[]): PendingAt[] {
  return records.flatMap(({ path, record }) => (record.status === 'waiting' && record.pending !== undefined ? [{ path, input: record.pending }] : []));
}
