/**
 * The package's one registry of error codes: every code the NATS layer throws or ends an actor
 * with is there, once, with the value it always had (codes are read by callers and stored in
 * actor records, so a value never changes).
 */
import { describe, expect, it } from 'vitest';
import { NatsErrorCode } from '../src/index.js';

describe('NatsErrorCode', () => {
  it('keeps every code value', () => {
    expect(NatsErrorCode).toEqual({
      ConnectFailed: 'nats_connect_failed',
      AuthFailed: 'nats_auth_failed',
      MissingFile: 'nats_missing_file',
      MessageTooLarge: 'nats_message_too_large',
      EventNotStored: 'nats_event_not_stored',
      ConnectionClosed: 'nats_connection_closed',
      ServerFailed: 'nats_server_failed',
      TaskMalformed: 'task_malformed',
      GraphMismatch: 'graph_mismatch',
      GraphUnknown: 'graph_unknown',
      TaskDeadLettered: 'task_dead_lettered',
      HostLost: 'host_lost',
      HostsNothing: 'hosts_nothing',
      ControlFailed: 'control_failed',
      ControlTimeout: 'control_timeout',
    });
  });

  it('has no code twice', () => {
    const values = Object.values(NatsErrorCode);
    expect(new Set(values).size).toBe(values.length);
  });
});
