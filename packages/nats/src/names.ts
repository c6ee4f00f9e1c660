/**
 * `@troupe/nats/names`: the namespace's names without the NATS client, for a program that reads
 * its flags before it knows whether it will connect (the CLI loads `@troupe/nats` only then).
 */
export { DEFAULT_NAMESPACE, natsNames } from './connection/nats-names.js';

export type { NatsNames } from './connection/nats-names.js';
