import type { Command } from 'commander';
import type { NatsConnectOptions } from '@troupe/nats';
// The names alone: reading the flags does not load the NATS client (see NatsPackage).
import { DEFAULT_NAMESPACE } from '@troupe/nats/names';

/** The NATS flags of a command, as commander parses them. */
export interface NatsFlags {
  nats?: string;
  natsUser?: string;
  natsPass?: string;
  natsToken?: string;
  natsCreds?: string;
  natsNkey?: string;
  natsTlsCa?: string;
  natsTlsCert?: string;
  natsTlsKey?: string;
  namespace?: string;
}

/** Where and how to reach NATS, resolved from the flags and the environment. */
export interface NatsTarget {
  connect: NatsConnectOptions;
  namespace: string;
  /** The server list as given, with any `user:password@` in a URL masked: safe to print. */
  display: string;
  /** The flags that reach the same place (`--nats <urls>`, plus `--namespace` when not the default), for the commands printed as hints. */
  flags: string;
}

/**
 * Adds the NATS connection flags to `command`. Defaults come from the environment when a flag is
 * absent (see {@link natsTargetOf}), so they are not commander defaults and secrets never show in
 * `--help`.
 */
export function addNatsOptions(command: Command): Command {
  return command
    .option('--nats <urls>', 'NATS server URLs, comma-separated (env TROUPE_NATS_URL)')
    .option('--nats-user <user>', 'NATS user name')
    .option('--nats-pass <password>', 'NATS password (env TROUPE_NATS_PASS)')
    .option('--nats-token <token>', 'NATS token (env TROUPE_NATS_TOKEN)')
    .option('--nats-creds <file>', 'NATS credentials file (user JWT and nkey seed, as nsc writes it)')
    .option('--nats-nkey <file>', 'file holding an NATS nkey seed')
    .option('--nats-tls-ca <file>', 'CA certificate (PEM) to verify the NATS server with')
    .option('--nats-tls-cert <file>', 'client certificate (PEM) for NATS')
    .option('--nats-tls-key <file>', 'client key (PEM) for NATS')
    .option('--namespace <ns>', 'keeps this deployment apart from others on the same NATS (env TROUPE_NAMESPACE; default "default")');
}

/**
 * The NATS target of `flags`, each absent flag taken from its environment variable
 * (`TROUPE_NATS_URL`, `TROUPE_NATS_PASS`, `TROUPE_NATS_TOKEN`, `TROUPE_NAMESPACE`); `undefined`
 * when no server is named at all (the command then works without NATS, or refuses to).
 */
export function natsTargetOf(flags: NatsFlags, env: Readonly<Record<string, string | undefined>>): NatsTarget | undefined {
  const urls = nonEmpty(flags.nats) ?? nonEmpty(env['TROUPE_NATS_URL']);
  if (urls === undefined) return undefined;
  const servers = urls
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  const namespace = nonEmpty(flags.namespace) ?? nonEmpty(env['TROUPE_NAMESPACE']) ?? DEFAULT_NAMESPACE;
  const pass = nonEmpty(flags.natsPass) ?? nonEmpty(env['TROUPE_NATS_PASS']);
  const token = nonEmpty(flags.natsToken) ?? nonEmpty(env['TROUPE_NATS_TOKEN']);
  const tls = {
    ...(flags.natsTlsCa === undefined ? {} : { caFile: flags.natsTlsCa }),
    ...(flags.natsTlsCert === undefined ? {} : { certFile: flags.natsTlsCert }),
    ...(flags.natsTlsKey === undefined ? {} : { keyFile: flags.natsTlsKey }),
  };
  const connect: NatsConnectOptions = {
    servers,
    ...(flags.natsUser === undefined ? {} : { user: flags.natsUser }),
    ...(pass === undefined ? {} : { pass }),
    ...(token === undefined ? {} : { token }),
    ...(flags.natsCreds === undefined ? {} : { credsFile: flags.natsCreds }),
    ...(flags.natsNkey === undefined ? {} : { nkeySeedFile: flags.natsNkey }),
    ...(Object.keys(tls).length === 0 ? {} : { tls }),
  };
  const display = servers.map(maskUserInfo).join(',');
  return { connect, namespace, display, flags: `--nats ${display}${namespace === DEFAULT_NAMESPACE ? '' : ` --namespace ${namespace}`}` };
}

/** `nats://user:secret@host` → `nats://***@host`, in a URL or anywhere in a message. */
export function maskUserInfo(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^@/\s,]+@/gi, '$1***@');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
