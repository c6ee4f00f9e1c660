export { startNatsServer } from './testing/nats-server-process.js';

export type { NatsServerOptions, NatsServerProcess } from './testing/nats-server-process.js';
