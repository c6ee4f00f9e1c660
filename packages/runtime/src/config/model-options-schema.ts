import { THINKING_LEVELS } from '@troupe/core';
import type { AnthropicCacheOptions } from '@troupe/providers';
import { isMap, isScalar } from 'yaml';
import { field, objectReader } from './object-reader.js';
import { eachValue, reader, type Reader } from './reader.js';
import { numberReader, oneOfReader, readBoolean, readSecret, readString, recordReader, reportType } from './yaml-readers.js';

/** `baseUrl`: an absolute http(s) URL. */
export const readBaseUrl: Reader<string> = reader(readString.schema, (ctx, slot) => {
  const text = readString(ctx, slot);
  if (text === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    ctx.report(slot, `${slot.path} must be an http or https URL, got ${JSON.stringify(text)}`, 'for example http://127.0.0.1:11434/v1');
    return undefined;
  }
  return text;
});

/** `headers`: a mapping of header names to strings (secrets: an unset variable is a missing key). */
export const readHeaders: Reader<Record<string, string>> = recordReader(eachValue(readSecret));

/** `thinking`: one of the core's thinking levels. */
export const readThinking = oneOfReader(THINKING_LEVELS);

/** `temperature`: from 0 to 2 (what the vendors accept between them). */
export const readTemperature = numberReader('a number from 0 to 2', { minimum: 0, maximum: 2 });

/** `topP`: above 0, at most 1. */
export const readTopP = numberReader('a number above 0 and at most 1', { exclusiveMinimum: 0, maximum: 1 });

/** The keys of a model's `cache` mapping (`AnthropicCacheOptions`). */
export const CACHE_FIELDS = {
  system: field(readBoolean, { default: true, description: 'A breakpoint after the system prompt.' }),
  tools: field(readBoolean, { default: true, description: 'A breakpoint after the last tool definition.' }),
  message: field(oneOfReader(['second-to-last', 'last', 'none']), { default: 'second-to-last', description: 'Which message gets a breakpoint.' }),
  ttl: field(oneOfReader(['5m', '1h']), { default: '5m', description: 'Cache lifetime.' }),
};

const readCacheFields = objectReader(CACHE_FIELDS);

/** `cache`: `true`, `false`, or which Anthropic breakpoints to set (`system`, `tools`, `message`, `ttl`). */
export const readCache: Reader<boolean | AnthropicCacheOptions> = reader(
  (scope) => ({ anyOf: [{ type: 'boolean' }, readCacheFields.schema(scope)] }),
  (ctx, slot) => {
    const node = slot.node;
    if (node !== null && isScalar(node) && typeof node.value === 'boolean') return node.value;
    if (node === null || !isMap(node)) return reportType(ctx, slot, 'true, false or a mapping', 'for example "cache: { message: last, ttl: 1h }"');
    const values = readCacheFields(ctx, slot);
    if (values === undefined) return undefined;
    const cache: AnthropicCacheOptions = {};
    if (values.system !== undefined) cache.system = values.system;
    if (values.tools !== undefined) cache.tools = values.tools;
    if (values.message !== undefined) cache.message = values.message;
    if (values.ttl !== undefined) cache.ttl = values.ttl;
    return cache;
  },
);
