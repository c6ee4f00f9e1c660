import { connectionProblem, modelInfoOf, parseModelSpec, ProviderConfigError, type ModelSpec, type ScriptStep } from '@troupe/providers';
import { isMap } from 'yaml';
import type { ModelOptions } from './graph-config.js';
import { readBaseUrl, readCache, readHeaders, readTemperature, readThinking, readTopP } from './model-options-schema.js';
import { field, objectReader } from './object-reader.js';
import type { ReadContext, Slot } from './read-context.js';
import { definition, entryReader, reader, type EntryReader, type MapEntry, type Reader } from './reader.js';
import { readScript } from './script-schema.js';
import { readPositiveInteger, readSecret, readString } from './yaml-readers.js';

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
  options?: ModelOptions;
  contextWindow?: number;
}

/** `provider:model`, parsed and checked against the providers this build has. */
const readModelSpec: Reader<ModelSpec> = reader(readString.schema, (ctx, slot) => {
  const text = readString(ctx, slot);
  if (text === undefined) return undefined;
  try {
    return parseModelSpec(text);
  } catch (error) {
    if (!(error instanceof ProviderConfigError)) throw error;
    ctx.report(slot, error.message);
    return undefined;
  }
});

const readScriptFile: Reader<ScriptFileRef> = reader(readString.schema, (ctx, slot) => {
  const path = readString(ctx, slot);
  return path === undefined ? undefined : { path, ctx, slot };
});

/** The keys of a model entry, with their readers. */
export const MODEL_FIELDS = {
  model: field(readModelSpec, {
    required: true,
    missingHint: 'for example "model: openai:gpt-4.1-mini", or "model: scripted"',
    description: 'provider:model (openai:gpt-4.1-mini, anthropic:claude-sonnet-4-5, ollama:qwen3…) or scripted.',
  }),
  script: field(readScript, { description: 'The replies of a scripted model, one per model call.' }),
  scriptFile: field(readScriptFile, { description: 'A YAML list of script steps, relative to this file.' }),
  apiKey: field(readSecret, { description: "Usually ${ENV_NAME}; defaults to the provider's environment variable." }),
  baseUrl: field(readBaseUrl, { description: 'The http(s) URL of the API (an OpenAI-compatible server, a proxy).' }),
  headers: field(readHeaders, { description: 'Extra HTTP headers sent with every request.' }),
  thinking: field(readThinking, {
    description: 'How hard the model thinks; a level the model lacks becomes the nearest one it has (xhigh is high where there is no higher effort).',
  }),
  maxTokens: field(readPositiveInteger, { description: 'The most tokens one reply may have.' }),
  temperature: field(readTemperature, { description: 'Sampling temperature (not sent to Anthropic, nor to OpenAI reasoning models).' }),
  topP: field(readTopP, { description: 'Nucleus sampling (not sent to Anthropic, nor to OpenAI reasoning models).' }),
  contextWindow: field(readPositiveInteger, {
    description: "The model's context window in tokens; overrides the catalog's (a local model's, or a small window to try compaction).",
  }),
  cache: field(readCache, { description: 'Anthropic prompt caching: true (the default), false, or which breakpoints to set.' }),
};

const readModelFields = objectReader(MODEL_FIELDS);

/** Keys only vendor models take, and `cache`, which only Anthropic models take. */
const CONNECTION_KEYS = ['apiKey', 'baseUrl', 'headers', 'cache'] as const;

/**
 * One entry of `models`: `model: provider:model`, plus for a scripted model its steps, inline
 * (`script`) or from a YAML file (`scriptFile`), exactly one of the two; for a vendor model its
 * `apiKey`, `baseUrl`, `headers` and (Anthropic) `cache`; for any model `thinking`, `maxTokens`,
 * `temperature`, `topP` and `contextWindow` (which overrides the catalog's: a local model's, or
 * a small window to test compaction with a scripted model). A vendor model without a key (option or environment
 * variable: a missing key, see `ReadContext.reportMissingKeyAt`) or an OpenAI-compatible one
 * without a base URL is reported at its `model:` line.
 */
export const readModel: EntryReader<ModelDraft> = entryReader(definition('model', readModelFields.schema), readModelEntry);

function readModelEntry(ctx: ReadContext, entry: MapEntry): ModelDraft | undefined {
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
  const spec = values.model;
  const keySlot = (key: string): Slot => ({
    path: `${entry.slot.path}.${key}`,
    node: node !== null && isMap(node) ? ((node.get(key, true) as Slot['node']) ?? null) : null,
  });
  for (const key of CONNECTION_KEYS) {
    if (!has(key)) continue;
    if (scripted) ctx.report(keySlot(key), `${entry.slot.path}.${key} is for vendor models, not scripted ones`);
    else if (key === 'cache' && spec.provider !== 'anthropic') ctx.report(keySlot(key), `${entry.slot.path}.cache applies to anthropic models only`);
  }
  const options: ModelOptions = {};
  if (values.apiKey !== undefined) options.apiKey = values.apiKey;
  if (values.baseUrl !== undefined) options.baseUrl = values.baseUrl;
  if (values.headers !== undefined) options.headers = values.headers;
  if (values.thinking !== undefined) options.thinking = values.thinking;
  if (values.maxTokens !== undefined) options.maxTokens = values.maxTokens;
  if (values.temperature !== undefined) options.temperature = values.temperature;
  if (values.topP !== undefined) options.topP = values.topP;
  if (values.cache !== undefined) options.cache = values.cache;
  // A key given but unreadable (an unset variable) was reported already; do not also say it is missing.
  if (!has('apiKey') || values.apiKey !== undefined) {
    const problem = connectionProblem(spec, { ...pick(options, 'apiKey', 'baseUrl'), env: ctx.state.env });
    if (problem?.kind === 'apiKey') ctx.reportMissingKeyAt(ctx.offsetOf(keySlot('model')), problem.message);
    else if (problem !== undefined) ctx.report(keySlot('model'), problem.message);
  }
  const draft: ModelDraft = { name: entry.key, spec };
  if (values.script !== undefined) draft.script = values.script;
  if (values.scriptFile !== undefined) draft.scriptFile = values.scriptFile;
  if (Object.keys(options).length > 0) draft.options = options;
  const contextWindow = values.contextWindow ?? modelInfoOf(spec)?.contextWindow;
  if (contextWindow !== undefined) draft.contextWindow = contextWindow;
  return draft;
}

function pick(options: ModelOptions, ...keys: ('apiKey' | 'baseUrl')[]): { apiKey?: string; baseUrl?: string } {
  const out: { apiKey?: string; baseUrl?: string } = {};
  for (const key of keys) {
    const value = options[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
