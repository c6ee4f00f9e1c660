/**
 * Structured output: a reply that must be JSON matching a JSON Schema. Shared by an agent's
 * `outputSchema` (its final answer, asked again in the same conversation while it does not
 * validate) and the runtime's pipeline steps (`output: { schema }`).
 */
import type { SchemaValidator } from './schema-validator.js';

/** A reply parsed as JSON and checked against a schema, or why it is not acceptable. */
export type JsonOutcome = { ok: true; value: unknown } | { ok: false; problem: string };

/** How many times an unacceptable JSON reply is asked for again, unless told otherwise. */
export const DEFAULT_OUTPUT_RETRIES = 1;

/** The instruction appended to a prompt that asks for JSON (a pipeline step's input). */
export function jsonInstruction(schema: Record<string, unknown>): string {
  return `\n\nReply with JSON only (no prose, no code fence) that matches this JSON Schema:\n${JSON.stringify(schema)}`;
}

/**
 * The instruction appended to an agent's system prompt when it has an `outputSchema`: its final
 * answer (the reply without tool calls that ends its turn) is JSON only; tools may be used before.
 */
export function outputInstruction(schema: Record<string, unknown>): string {
  return `Your final answer (the reply without tool calls that ends your work) must be JSON only (no prose, no code fence) that matches this JSON Schema:\n${JSON.stringify(schema)}`;
}

/** What the model is told when its reply was not acceptable. */
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
