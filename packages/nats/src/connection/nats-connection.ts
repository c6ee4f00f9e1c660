import { readFile } from 'node:fs/promises';
import { TroupeError } from '@troupe/core';
import {
  AuthorizationError,
  connect,
  credsAuthenticator,
  nkeyAuthenticator,
  type Authenticator,
  type NatsConnection,
  type NodeConnectionOptions,
} from '@nats-io/transport-node';
import { NatsErrorCode } from '../nats-error-code.js';
import { coalesceWrites } from './write-coalescing.js';

/** How a lost connection is re-established. The defaults reconnect forever. */
export interface NatsReconnectOptions {
  /** Wait before the second attempt (the first is immediate), doubled after each failure. Default 250 ms. */
  initialDelayMs?: number;
  /** The longest wait between two attempts. Default 5000 ms. */
  maxDelayMs?: number;
  /** Up to this much random time is added to each wait, so many workers do not reconnect in step. Default 500 ms. */
  jitterMs?: number;
  /** Failed attempts per server before giving up on it; -1 (the default) never gives up. */
  maxAttempts?: number;
}

/** Where and how to connect to NATS. Files are read by {@link connectNats}. */
export interface NatsConnectOptions {
  /** One or more `host:port` / `nats://host:port` URLs; a `tls://host:port` URL requires TLS as `tls` does. */
  servers: string | string[];
  user?: string;
  pass?: string;
  token?: string;
  /** A `.creds` file (user JWT + nkey seed), as `nsc` writes it. */
  credsFile?: string;
  /** A file holding an nkey seed (`SU…`). */
  nkeySeedFile?: string;
  /** Require TLS; the files are PEM. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
  /** The client name the server's monitoring shows. */
  name?: string;
  /** Milliseconds allowed for one server's handshake. Default 10000. */
  timeoutMs?: number;
  reconnect?: NatsReconnectOptions;
  /**
   * Hears what works but not as it should, once per connection: today, that its writes cannot be
   * coalesced (see `coalesceWrites`: nats.js is not the version Troupe reaches into). Default:
   * `process.emitWarning`.
   */
  onWarning?: (message: string) => void;
}

/**
 * Connects to NATS, reconnecting forever (with back-off and jitter) by default once connected.
 * The first connection is not retried: when no server answers it rejects with a
 * `TroupeError` (`nats_connect_failed`, or `nats_auth_failed` when credentials are refused)
 * naming the servers; a creds, nkey or TLS file that cannot be read rejects with
 * `nats_missing_file` naming the file.
 *
 * Its writes are coalesced per turn of the event loop (see `coalesceWrites`); when that cannot
 * apply, `onWarning` is told once.
 *
 * nats.js 3 keeps no publish buffer across a reconnect (each new attempt clears its outbound
 * buffer: `ProtocolHandler.resetOutbound` in nats.js core/src/protocol.ts; nats-io/nats.js#213),
 * so whoever must not lose a core publish keeps it until confirmed, as the NATS run store does
 * for events.
 */
export async function connectNats(options: NatsConnectOptions): Promise<NatsConnection> {
  const servers = Array.isArray(options.servers) ? options.servers : [options.servers];
  const authenticators: Authenticator[] = [];
  if (options.credsFile !== undefined) authenticators.push(credsAuthenticator(await readOptionFile('creds', options.credsFile)));
  if (options.nkeySeedFile !== undefined) authenticators.push(nkeyAuthenticator(trimmed(await readOptionFile('nkey seed', options.nkeySeedFile))));
  const backoff = reconnectBackoff(options.reconnect ?? {});
  const connectOptions: NodeConnectionOptions = {
    servers,
    timeout: options.timeoutMs ?? 10_000,
    reconnect: true,
    maxReconnectAttempts: options.reconnect?.maxAttempts ?? -1,
    reconnectDelayHandler: backoff.delay,
    // nats.js captures a stack for every request it might fail (a `RequestError` built per
    // request, even one that succeeds: nats-io/nats.deno#614, `RequestOne` in nats.js
    // core/src/request.ts); at a few requests per task that was a tenth of a worker's CPU. Errors
    // still say what failed, without the caller's stack.
    noAsyncTraces: true,
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.user === undefined ? {} : { user: options.user }),
    ...(options.pass === undefined ? {} : { pass: options.pass }),
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(authenticators.length === 0 ? {} : { authenticator: authenticators }),
    ...(options.tls === undefined ? (servers.some(asksForTls) ? { tls: {} } : {}) : { tls: await readTls(options.tls) }),
  };
  let nc: NatsConnection;
  try {
    nc = await connect(connectOptions);
  } catch (error) {
    const where = servers.join(', ');
    const why = error instanceof Error ? error.message : String(error);
    if (error instanceof AuthorizationError) {
      throw new TroupeError(NatsErrorCode.AuthFailed, `NATS at ${where} rejected the credentials: ${why}`, { cause: error, data: { servers } });
    }
    throw new TroupeError(NatsErrorCode.ConnectFailed, `cannot connect to NATS at ${where}: ${why}`, { cause: error, data: { servers } });
  }
  backoff.watch(nc);
  coalesceWrites(nc, { onWarning: options.onWarning ?? ((message) => process.emitWarning(message, 'TroupeNatsWarning')) });
  return nc;
}

/**
 * Whether a server URL asks for TLS (`tls://`). nats.js reads only the host and port of a URL, so
 * without this a `tls://` server that offers no TLS was used in plain text.
 */
function asksForTls(server: string): boolean {
  return /^tls:\/\//i.test(server.trim());
}

async function readOptionFile(what: string, file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new TroupeError(NatsErrorCode.MissingFile, `cannot read the NATS ${what} file ${file} (${code})`, { cause: error, data: { file } });
  }
}

/** A seed file usually ends with a newline, which the nkey parser rejects (nats.js `nkeyAuthenticator`, core/src/authenticator.ts). */
function trimmed(bytes: Uint8Array): Uint8Array {
  return new TextEncoder().encode(Buffer.from(bytes).toString('utf8').trim());
}

async function readTls(tls: NonNullable<NatsConnectOptions['tls']>): Promise<NonNullable<NodeConnectionOptions['tls']>> {
  const text = async (what: string, file: string | undefined): Promise<string | undefined> =>
    file === undefined ? undefined : Buffer.from(await readOptionFile(what, file)).toString('utf8');
  const [ca, cert, key] = await Promise.all([text('TLS CA', tls.caFile), text('TLS certificate', tls.certFile), text('TLS key', tls.keyFile)]);
  return { ...(ca === undefined ? {} : { ca }), ...(cert === undefined ? {} : { cert }), ...(key === undefined ? {} : { key }) };
}

/**
 * nats.js asks `delay()` on every turn of its reconnect loop, not once per attempt
 * (`ProtocolHandler.dodialLoop` in nats.js core/src/protocol.ts; no upstream issue), so the wait
 * is worked out once per failed attempt (counted from the `reconnecting` statuses) and kept.
 */
function reconnectBackoff(options: NatsReconnectOptions): { delay: () => number; watch: (nc: NatsConnection) => void } {
  const initial = options.initialDelayMs ?? 250;
  const max = options.maxDelayMs ?? 5_000;
  const jitter = options.jitterMs ?? 500;
  let attempts = 0;
  let computedFor = -1;
  let current = initial;
  return {
    delay: () => {
      if (computedFor !== attempts) {
        computedFor = attempts;
        current = Math.min(max, initial * 2 ** Math.max(0, attempts - 1)) + Math.random() * jitter;
      }
      return current;
    },
    watch: (nc) => {
      void (async () => {
        for await (const status of nc.status()) {
          if (status.type === 'reconnecting') attempts++;
          else if (status.type === 'reconnect') attempts = 0;
        }
      })().catch(() => undefined); // the status iterator ends with the connection; it does not throw
    },
  };
}
