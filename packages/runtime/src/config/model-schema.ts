import { parseModelSpec, ProviderConfigError, type ModelSpec, type ScriptStep } from '@troupe/providers';
import { isMap } from 'yaml';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { readScript } from './script-schema.js';
import { readString, type MapEntry, type Reader } from './yaml-readers.js';

/** A `scriptFile` reference, loaded after the graph file has been read. */
export interface ScriptFileRef {
  /** The path as written (relative to the graph file unless absolute). */
  path: string;
  /** Where it was written, to report an unreadable file there. */
  ctx: ReadContext;
  slot: Slot;
}

/** A model as read from the graph file, before its script file (if any) is loaded. */
export interface ModelDraft {
  name: string;
  spec: ModelSpec;
  script?: ScriptStep[];
  scriptFile?: ScriptFileRef;
}

/** `provider:model`, parsed and checked against the providers this build has. */
const readModelSpec: Reader<ModelSpec> = (ctx, slot) => {
  const text = readString(ctx, slot);
  if (text === undefined) return undefined;
  try {
    return parseModelSpec(text);
  } catch (error) {
    if (!(error instanceof ProviderConfigError)) throw error;
    ctx.report(slot, error.message);
    return undefined;
  }
};

const readScriptFile: Reader<ScriptFileRef> = (ctx, slot) => {
  const path = readString(ctx, slot);
  return path === undefined ? undefined : { path, ctx, slot };
};

const readModelFields = objectReader({
  model: field(readModelSpec, { required: true, missingHint: 'for example "model: openai:gpt-4.1-mini", or "model: scripted"' }),
  script: field(readScript),
  scriptFile: field(readScriptFile),
});

/**
 * One entry of `models`: `model: provider:model`, plus for a scripted model its steps, inline
 * (`script`) or from a YAML file (`scriptFile`), exactly one of the two.
 */
export function readModel(ctx: ReadContext, entry: MapEntry): ModelDraft | undefined {
  ctx.define('model', entry.key);
  const values = readModelFields(ctx, entry.slot);
  if (values === undefined) return undefined;
  const owner: Slot = entry.slot.key === undefined ? entry.slot : { path: entry.slot.path, node: entry.slot.key };
  const node = entry.slot.node;
  const has = (key: string): boolean => node !== null && isMap(node) && node.has(key);
  const scripted = values.model?.provider === 'scripted';
  if (scripted && !has('script') && !has('scriptFile')) {
    ctx.report(owner, `the scripted model ${entry.slot.path} needs "script" or "scriptFile"`, 'list the replies it should play');
  } else if (has('script') && has('scriptFile')) {
    ctx.report(owner, `${entry.slot.path} has both "script" and "scriptFile"`, 'keep one of them');
  } else if (values.model !== undefined && !scripted && (has('script') || has('scriptFile'))) {
    ctx.report(owner, `${entry.slot.path} is not a scripted model, so it cannot have a script`);
  }
  if (values.model === undefined) return undefined;
  const draft: ModelDraft = { name: entry.key, spec: values.model };
  if (values.script !== undefined) draft.script = values.script;
  if (values.scriptFile !== undefined) draft.scriptFile = values.scriptFile;
  return draft;
}
