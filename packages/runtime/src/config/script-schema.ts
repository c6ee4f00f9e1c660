import type { ProviderErrorKind } from '@troupe/core';
import type { ScriptedFailure, ScriptedReply, ScriptedToolCall, ScriptStep } from '@troupe/providers';
import { isMap } from 'yaml';
import { field, objectReader } from './object-reader.js';
import { definition, reader, type Reader } from './reader.js';
import { listReader, oneOfReader, readBoolean, readEntries, readJson, readNonNegativeInteger, readNonNegativeNumber, readString } from './yaml-readers.js';

const ERROR_KINDS = ['rate_limited', 'overflow', 'auth', 'network', 'api', 'aborted', 'invalid_request'] as const satisfies readonly ProviderErrorKind[];

/** A mapping as a plain object (tool call arguments), strings interpolated. */
const readArguments: Reader<Record<string, unknown>> = reader({ type: 'object' }, (ctx, slot) => {
  if (readEntries(ctx, slot) === undefined) return undefined;
  return readJson(ctx, slot) as Record<string, unknown>;
});

/** The keys of a scripted tool call (`ScriptedToolCall`). */
export const TOOL_CALL_FIELDS = {
  name: field(readString, { required: true }),
  arguments: field(readArguments),
  rawArguments: field(readString),
  id: field(readString),
};

const readToolCallFields = objectReader(TOOL_CALL_FIELDS);
const readToolCall: Reader<ScriptedToolCall> = reader(readToolCallFields.schema, (ctx, slot) => {
  const values = readToolCallFields(ctx, slot);
  if (values?.name === undefined) return undefined;
  return { ...values, name: values.name };
});

/** The keys of a scripted reply's `usage`. */
export const USAGE_FIELDS = {
  input: field(readNonNegativeInteger),
  output: field(readNonNegativeInteger),
  cacheRead: field(readNonNegativeInteger),
  cacheWrite: field(readNonNegativeInteger),
  reasoning: field(readNonNegativeInteger, { description: 'The part of output spent reasoning.' }),
};

/** The keys of a scripted reply (`ScriptedReply`). */
export const REPLY_FIELDS = {
  text: field(readString, { description: "The reply's text; {{lastToolResult}} is replaced by the text of the latest tool result." }),
  thinking: field(readString),
  toolCalls: field(listReader(readToolCall)),
  stopReason: field(oneOfReader(['stop', 'length', 'toolUse', 'refusal']), { description: 'Default: toolUse when there are tool calls, else stop.' }),
  usage: field(objectReader(USAGE_FIELDS)),
  cost: field(readNonNegativeNumber, { description: "Total dollar cost of the reply; overrides the provider's pricing." }),
  delayMs: field(readNonNegativeInteger, { description: 'Wait this long before streaming.' }),
};

const readReply: Reader<ScriptedReply> = objectReader(REPLY_FIELDS);

/** The keys of a scripted failure's `error`. */
export const FAILURE_DETAIL_FIELDS = {
  kind: field(oneOfReader(ERROR_KINDS), { required: true }),
  message: field(readString),
  retryAfterMs: field(readNonNegativeInteger),
  status: field(readNonNegativeInteger),
  retryable: field(readBoolean),
};

/** The keys of a scripted failure (`ScriptedFailure`). */
export const FAILURE_FIELDS = {
  error: field(objectReader(FAILURE_DETAIL_FIELDS), { required: true }),
  partialText: field(readString, { description: 'Streamed before the failure, as when a connection drops mid-reply.' }),
  delayMs: field(readNonNegativeInteger),
};

const readFailureFields = objectReader(FAILURE_FIELDS);
const readFailure: Reader<ScriptedFailure> = reader(readFailureFields.schema, (ctx, slot) => {
  const values = readFailureFields(ctx, slot);
  const kind = values?.error?.kind;
  if (values?.error === undefined || kind === undefined) return undefined;
  return { ...values, error: { ...values.error, kind } };
});

/**
 * One step of a scripted model, in the shape of the scripted provider's `ScriptStep`: a reply
 * (`text`, `thinking`, `toolCalls`, `stopReason`, `usage`, `cost`, `delayMs`) or, when it has an
 * `error` key, a failed attempt (`error: { kind, message, retryAfterMs, status, retryable }`,
 * `partialText`, `delayMs`).
 */
export const readScriptStep: Reader<ScriptStep> = reader(
  // A reply has no `error` key (it allows no other key), so exactly one branch matches a step.
  definition('scriptStep', (scope) => ({ anyOf: [readReply.schema(scope), readFailure.schema(scope)] })),
  (ctx, slot) => {
    const node = slot.node;
    if (node !== null && isMap(node) && node.has('error')) return readFailure(ctx, slot);
    return readReply(ctx, slot);
  },
);

/** A non-empty list of script steps. */
export const readScript: Reader<ScriptStep[]> = listReader(readScriptStep, { nonEmpty: true });
