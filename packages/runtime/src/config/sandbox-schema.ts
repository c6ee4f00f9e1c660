import { SANDBOX_MODES, type SandboxPolicy } from '@troupe/tools';
import { isMap } from 'yaml';
import { field, objectReader } from './object-reader.js';
import { reader, type Reader } from './reader.js';
import { listReader, oneOfReader, readString } from './yaml-readers.js';

const readMode = oneOfReader(SANDBOX_MODES);

/** `*`, a host name or IP address, `*.domain`, each with an optional `:port`; `[v6]` or a bare IPv6 address. */
const HOST_PATTERN = '^(\\*|(\\*\\.)?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*\\.?(:\\d{1,5})?|\\[[0-9A-Fa-f:.]+\\](:\\d{1,5})?|[0-9A-Fa-f]*:[0-9A-Fa-f:.]+)$';
const HOST = new RegExp(HOST_PATTERN);

/** One host of `network.allow`: not a URL, so a scheme or a path is reported where it is written. */
const readHost: Reader<string> = reader({ type: 'string', pattern: HOST_PATTERN }, (ctx, slot) => {
  const host = readString(ctx, slot);
  if (host === undefined || HOST.test(host)) return host;
  ctx.report(
    slot,
    `${slot.path} must be a host ("api.github.com", "*.github.com", "api.github.com:443") or "*", got ${JSON.stringify(host)}`,
    'write the host alone, without a scheme or a path',
  );
  return undefined;
});

const readNetwork = objectReader({
  allow: field(listReader(readHost), {
    description:
      'Hosts it may reach, through an HTTP(S) proxy its environment names: "api.github.com", "*.github.com" (subdomains), "host:443"; ["*"] for any host, directly. Without it the network is off.',
  }),
});

const readPolicyFields = objectReader({
  mode: field(readMode, { default: 'auto', description: 'off, auto (sandboxed where the machine supports it, else a warning once) or required.' }),
  network: field(readNetwork, { description: 'What it may reach. Default: nothing (the network is off).' }),
  allowWrite: field(listReader(readString), { description: 'More paths it may write, besides its workspace and its private temporary directory ($TMPDIR).' }),
  denyRead: field(listReader(readString), {
    description: 'More paths hidden from it even for reading, besides ~/.ssh, ~/.aws, ~/.config/gcloud… and the graph’s .env.',
  }),
});

/**
 * `sandbox:` of an agent or an MCP server: a mode (`off`, `auto`, `required`), or the whole
 * policy `{ mode, network: { allow }, allowWrite, denyRead }`.
 */
export const readSandbox: Reader<SandboxPolicy> = reader(
  (scope) => ({ anyOf: [readMode.schema(scope), readPolicyFields.schema(scope)] }),
  (ctx, slot) => {
    if (slot.node === null || !isMap(slot.node)) {
      const mode = readMode(ctx, slot);
      return mode === undefined ? undefined : { mode };
    }
    const values = readPolicyFields(ctx, slot);
    if (values === undefined) return undefined;
    const policy: SandboxPolicy = { mode: values.mode ?? 'auto' };
    if (values.network?.allow !== undefined) policy.network = { allow: values.network.allow };
    if (values.allowWrite !== undefined) policy.allowWrite = values.allowWrite;
    if (values.denyRead !== undefined) policy.denyRead = values.denyRead;
    return policy;
  },
);
