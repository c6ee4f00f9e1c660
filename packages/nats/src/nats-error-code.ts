/**
 * Error codes of Troupe's NATS layer (connection, resources, run store, the test server). Thrown
 * as `TroupeError`s with one of these codes; across NATS only `{ code, message, data }` travel.
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
} as const;

/** One of the {@link NatsErrorCode} values. */
export type NatsErrorCode = (typeof NatsErrorCode)[keyof typeof NatsErrorCode];
