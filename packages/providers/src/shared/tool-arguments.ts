/** Tool-call arguments once complete: parsed, or `{}` plus the raw text when it is not a JSON object. */
export interface ParsedArguments {
  arguments: Record<string, unknown>;
  rawArguments?: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses the complete argument text of a tool call. Empty text means no arguments. Anything that
 * is not a JSON object (broken JSON, an array, a number) keeps the text in `rawArguments` with
 * empty `arguments`, so the core's validation gives the model an error result instead of a crash.
 */
export function parseToolArguments(text: string): ParsedArguments {
  if (text.trim() === '') return { arguments: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (isPlainObject(value)) return { arguments: value };
  } catch {
    // Broken JSON from the model: kept raw below.
  }
  return { arguments: {}, rawArguments: text };
}
