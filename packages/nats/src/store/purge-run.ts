import type { RunId } from '@troupe/core';
import { keyToken } from '../connection/nats-names.js';
import type { NatsResources } from '../connection/nats-resources.js';

/**
 * Removes everything the namespace keeps about run `runId`: its events (from the events stream),
 * its actor records, checkpoint heads, message chunks and delegations, then its run record (from
 * the KV buckets' streams, purged by subject, so no delete markers are left behind). The record
 * goes last: a deletion cut short leaves the run listed, and deleting it again finishes the job.
 */
export async function purgeRun(resources: NatsResources, runId: RunId): Promise<void> {
  const { names, jsm } = resources;
  const token = keyToken(runId);
  const kvStream = (bucket: string): string => `KV_${bucket}`;
  await Promise.all([
    jsm.streams.purge(names.eventsStream, { filter: names.eventsSubject(runId) }),
    ...[names.actorsBucket, names.headsBucket, names.messagesBucket, names.childrenBucket].map((bucket) =>
      jsm.streams.purge(kvStream(bucket), { filter: `$KV.${bucket}.${token}.>` }),
    ),
  ]);
  await jsm.streams.purge(kvStream(names.runsBucket), { filter: `$KV.${names.runsBucket}.${token}` });
}
