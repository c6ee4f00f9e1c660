import type { NatsConnection, NatsResources } from '@troupe/nats';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { maskUserInfo, natsTargetOf, type NatsFlags, type NatsTarget } from './nats-flags.js';

/**
 * `@troupe/nats` itself. A command loads it when it opens a session (or starts a worker), so a
 * local run, `--help` or any command without `--nats` never loads the NATS client (about 10 MB
 * and a third of a second at start-up on a small machine).
 */
export type NatsPackage = typeof import('@troupe/nats');

/** An open connection to NATS with the streams and buckets of the target's namespace. */
export interface NatsSession {
  readonly resources: NatsResources;
  readonly target: NatsTarget;
  /** `@troupe/nats`, loaded to open this session: what works with it takes its functions from here. */
  readonly nats: NatsPackage;
  /** Drains the connection (what was published is sent, then it closes); never rejects. */
  close(): Promise<void>;
}

/**
 * Connects to `target` and opens its namespace's resources. Any failure (no server answers,
 * credentials refused, a creds/TLS file missing, no JetStream, a bad namespace) is printed as one
 * line, `troupe <command>: <reason>`, with any `user:password@` of a URL masked, and resolves
 * `undefined`: the caller exits {@link ExitCode.BadInput} (nothing ran; the flags or the server
 * need fixing).
 */
export async function openNatsSession(target: NatsTarget, io: CliIo, command: string): Promise<NatsSession | undefined> {
  const nats = await import('@troupe/nats');
  const { connectNats, natsNames, openNatsResources } = nats;
  let nc: NatsConnection;
  try {
    natsNames(target.namespace);
    nc = await connectNats({ ...target.connect, name: `troupe ${command}`, onWarning: (message) => io.stderr(`troupe ${command}: warning: ${message}\n`) });
  } catch (error) {
    io.stderr(`troupe ${command}: ${maskUserInfo(messageOf(error))}\n`);
    return undefined;
  }
  const close = (): Promise<void> => nc.drain().catch(() => nc.close().catch(() => undefined));
  try {
    const resources = await openNatsResources(nc, { namespace: target.namespace });
    return { resources, target, nats, close };
  } catch (error) {
    await close();
    const hint = /jetstream/i.test(messageOf(error)) ? ' (is JetStream enabled? start the server with nats-server -js)' : '';
    io.stderr(
      `troupe ${command}: cannot open the Troupe streams of namespace "${target.namespace}" on NATS at ${target.display}: ${maskUserInfo(messageOf(error))}${hint}\n`,
    );
    return undefined;
  }
}

/**
 * Runs `work` with a session on the NATS the flags name, and closes it after. Without a server in
 * the flags or the environment, says that `--nats` is required; any failure to connect is printed
 * as one line. Both exit {@link ExitCode.BadInput}.
 */
export async function withNatsSession(flags: NatsFlags, io: CliIo, command: string, work: (session: NatsSession) => Promise<ExitCode>): Promise<ExitCode> {
  const target = natsTargetOf(flags, io.env);
  if (target === undefined) {
    io.stderr(`troupe ${command}: --nats <urls> is required (or set TROUPE_NATS_URL)\n`);
    return ExitCode.BadInput;
  }
  const session = await openNatsSession(target, io, command);
  if (session === undefined) return ExitCode.BadInput;
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
