import { SANDBOX_MODES, type SandboxPolicy } from '@troupe/tools';
import { isMap } from 'yaml';
import { field, objectReader } from './object-reader.js';
import { reader, type Reader } from './reader.js';
import { listReader, oneOfReader, readString } from './yaml-readers.js';

const readMode = oneOfReader(SANDBOX_MODES);

const readNetwork = objectReader({
  allow: field(listReader(readString), { description: 'Hosts it may reach: ["*"] for any. Without it the network is off.' }),
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
