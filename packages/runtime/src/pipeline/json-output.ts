import type { SchemaValidator } from '@troupe/core';

/** A reply parsed as JSON and checked against a schema, or why it is not acceptable. */
export type JsonOutcome = { ok: true; value: unknown } | { ok: false; problem: string };

/** The instruction appended to a step's input when it asks for JSON. */
export function jsonInstruction(schema: Record<string, unknown>): string {
  return `\n\nReply with JSON only (no prose, no code fence) that matches this JSON Schema:\n${JSON.stringify(schema)}`;
}

/** What the agent is told when its reply was not acceptable. */
export function retryInstruction(problem: string): string {
  return `\n\nYour previous reply was not acceptable: ${problem}. Reply again with JSON only.`;
}

/** Parses a reply (tolerating a ```json fence) and validates it against `schema`. */
export function parseJsonOutput(text: string, schema: Record<string, unknown>, validator: SchemaValidator): JsonOutcome {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const checked = validator.compile(schema)(value);
  return checked.ok ? { ok: true, value } : { ok: false, problem: `it does not match the schema: ${checked.problems.join('; ')}` };
}
