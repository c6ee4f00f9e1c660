/**
 * Every error code of Troupe's NATS layer (connection, resources, run store, tasks, actors, the
 * test server), in one registry. Thrown as `TroupeError`s (or set as an actor result's error)
 * with one of these codes; across NATS only `{ code, message, data }` travel. Codes this package
 * shares with the runtime (`unknown_actor`, `run_not_waiting`, `unknown_agent`, …) come from the
 * runtime's registries (`TransportErrorCode`, `RunErrorCode`, `GraphErrorCode`, `RunStoreErrorCode`).
 */
export const NatsErrorCode = {
  /** No server of the list answered (refused, unreachable, handshake timed out). */
  ConnectFailed: 'nats_connect_failed',
  /** A server answered but rejected the credentials. */
  AuthFailed: 'nats_auth_failed',
  /** A creds, nkey seed or TLS file named in the options cannot be read. */
  MissingFile: 'nats_missing_file',
  /** One message of a checkpoint does not fit in one NATS payload. */
  MessageTooLarge: 'nats_message_too_large',
  /** An event could not be stored (it does not fit in one NATS payload); the run's next `flush` reports it. */
  EventNotStored: 'nats_event_not_stored',
  /** The connection was closed while a write still waited for it. */
  ConnectionClosed: 'nats_connection_closed',
  /** A local `nats-server` could not be started. */
  ServerFailed: 'nats_server_failed',
  /** A task body is not a task (not JSON, or lacking runId, path, agent or depth); it is dropped. */
  TaskMalformed: 'task_malformed',
  /** A task was made for another graph than the worker's; its actor ends with this error. */
  GraphMismatch: 'graph_mismatch',
  /** A task cannot be queued: the process does not know which graph the actor runs, so which workers take it. */
  GraphUnknown: 'graph_unknown',
  /** A task was delivered more than `maxDeliver` times; it went to the dead-letter subject and its actor ends with this error. */
  TaskDeadLettered: 'task_dead_lettered',
  /** A stranded actor lost its host before its first checkpoint: it is ended with this error, so its parent starts it again. */
  HostLost: 'host_lost',
  /** A transport that only controls remote actors (see `remoteOnlyTransport`) was asked to host one: a bug. */
  HostsNothing: 'hosts_nothing',
  /** A control command failed on its host with an error that is not a `TroupeError` (the host's answer). */
  ControlFailed: 'control_failed',
  /**
   * A control command's host did not answer within `controlTimeoutMs`: it is busy, or its process
   * died and nats-server has not noticed yet. Whether the command was applied is unknown.
   */
  ControlTimeout: 'control_timeout',
} as const;

/** One of the {@link NatsErrorCode} values. */
export type NatsErrorCode = (typeof NatsErrorCode)[keyof typeof NatsErrorCode];
