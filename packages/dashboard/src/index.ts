export { DashboardError, DashboardErrorCode, httpStatusOf } from './dashboard-error.js';
export { describeGraph } from './graph-view.js';
export { REDACTED, redactSecrets } from './redact.js';
export { RunFeed } from './run-feed.js';
export { startDashboard } from './server/dashboard-server.js';
export { createFileRunSource } from './sources/file-run-source.js';
export { createNatsRunSource } from './sources/nats-run-source.js';

export type { AgentView, GraphView } from './graph-view.js';
export type { FeedEvent, FeedListener } from './run-feed.js';
export type { Dashboard, DashboardOptions } from './server/dashboard-server.js';
export type { FileRunSourceOptions } from './sources/file-run-source.js';
export type { NatsRunSourceOptions } from './sources/nats-run-source.js';
export type { RunAction, RunDetail, RunSource, WorkerView } from './sources/run-source.js';
