import type { ProviderErrorKind } from '@troupe/core';
import type { ScriptedFailure, ScriptedReply, ScriptedToolCall, ScriptStep } from '@troupe/providers';
import { isMap } from 'yaml';
import { field, objectReader } from './object-reader.js';
import {
  listReader,
  oneOfReader,
  readBoolean,
  readEntries,
  readJson,
  readNonNegativeInteger,
  readNonNegativeNumber,
  readString,
  type Reader,
} from './yaml-readers.js';

const ERROR_KINDS = ['rate_limited', 'overflow', 'auth', 'network', 'api', 'aborted', 'invalid_request'] as const satisfies readonly ProviderErrorKind[];

/** A mapping as a plain object (tool call arguments), strings interpolated. */
const readArguments: Reader<Record<string, unknown>> = (ctx, slot) => {
  if (readEntries(ctx, slot) === undefined) return undefined;
  return readJson(ctx, slot) as Record<string, unknown>;
};

const readToolCall: Reader<ScriptedToolCall> = (ctx, slot) => {
  const values = objectReader({
    name: field(readString, { required: true }),
    arguments: field(readArguments),
    rawArguments: field(readString),
    id: field(readString),
  })(ctx, slot);
  if (values?.name === undefined) return undefined;
  return { ...values, name: values.name };
};

const readUsage = objectReader({
  input: field(readNonNegativeInteger),
  output: field(readNonNegativeInteger),
  cacheRead: field(readNonNegativeInteger),
  cacheWrite: field(readNonNegativeInteger),
  reasoning: field(readNonNegativeInteger),
});

const readReply: Reader<ScriptedReply> = objectReader({
  text: field(readString),
  thinking: field(readString),
  toolCalls: field(listReader(readToolCall)),
  stopReason: field(oneOfReader(['stop', 'length', 'toolUse', 'refusal'])),
  usage: field(readUsage),
  cost: field(readNonNegativeNumber),
  delayMs: field(readNonNegativeInteger),
});

const readFailureDetails = objectReader({
  kind: field(oneOfReader(ERROR_KINDS), { required: true }),
  message: field(readString),
  retryAfterMs: field(readNonNegativeInteger),
  status: field(readNonNegativeInteger),
  retryable: field(readBoolean),
});

const readFailure: Reader<ScriptedFailure> = (ctx, slot) => {
  const values = objectReader({
    error: field(readFailureDetails, { required: true }),
    partialText: field(readString),
    delayMs: field(readNonNegativeInteger),
  })(ctx, slot);
  const kind = values?.error?.kind;
  if (values?.error === undefined || kind === undefined) return undefined;
  return { ...values, error: { ...values.error, kind } };
};

/**
 * One step of a scripted model, in the shape of the scripted provider's `ScriptStep`: a reply
 * (`text`, `thinking`, `toolCalls`, `stopReason`, `usage`, `cost`, `delayMs`) or, when it has an
 * `error` key, a failed attempt (`error: { kind, message, retryAfterMs, status, retryable }`,
 * `partialText`, `delayMs`).
 */
export const readScriptStep: Reader<ScriptStep> = (ctx, slot) => {
  const node = slot.node;
  if (node !== null && isMap(node) && node.has('error')) return readFailure(ctx, slot);
  return readReply(ctx, slot);
};

/** A non-empty list of script steps. */
export const readScript: Reader<ScriptStep[]> = listReader(readScriptStep, { nonEmpty: true });
