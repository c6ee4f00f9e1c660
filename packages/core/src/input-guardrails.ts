/**
 * Input guardrails: checks a prompt goes through, in order, before it enters the history and
 * before the first model call of its run. Each may let it pass, reject it (the run ends with stop
 * reason `rejected` and an `input_rejected` event; nothing is sent to the model) or rewrite its
 * text (the next guardrail sees the rewritten text).
 */
import type { Message, UserContent } from './messages.js';

/** What a guardrail checks: the prompt's text (its user messages' text, joined by newlines) and its messages. */
export interface GuardrailInput {
  readonly text: string;
  readonly messages: readonly Message[];
}

/** A guardrail's decision. `undefined` lets the input pass, as `allow` does. */
export type GuardrailVerdict = { action: 'allow' } | { action: 'reject'; reason: string } | { action: 'rewrite'; text: string };

/**
 * A check on user input.
 *
 * Contract: `check` may be synchronous or not; it should honour `signal` (the run was aborted). A
 * throw or rejection ends the run with stop reason `error` (code `guardrail_failed`): a check that
 * cannot decide does not let the input through. `name` names it in events and results.
 */
export interface InputGuardrail {
  readonly name: string;
  check(input: GuardrailInput, options: { signal: AbortSignal }): GuardrailVerdict | undefined | Promise<GuardrailVerdict | undefined>;
}

/** The text guardrails check: every user message's text, joined by newlines. */
export function inputText(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    if (typeof message.content === 'string') parts.push(message.content);
    else for (const part of message.content) if (part.type === 'text') parts.push(part.text);
  }
  return parts.join('\n');
}

/**
 * The prompt with its text replaced by `text`: the first user message gets it (its images kept),
 * the other user messages lose their text (and are dropped if nothing is left).
 */
export function rewriteInput(messages: readonly Message[], text: string): Message[] {
  const out: Message[] = [];
  let placed = false;
  for (const message of messages) {
    if (message.role !== 'user') {
      out.push(message);
      continue;
    }
    const images: UserContent[] = typeof message.content === 'string' ? [] : message.content.filter((part) => part.type !== 'text');
    if (!placed) {
      placed = true;
      out.push({ ...message, content: images.length === 0 ? text : [{ type: 'text', text }, ...images] });
    } else if (images.length > 0) {
      out.push({ ...message, content: images });
    }
  }
  if (!placed) out.unshift({ role: 'user', content: text, timestamp: messages[0]?.timestamp ?? 0 });
  return out;
}

/** A guardrail that rejects input longer than `max` characters. */
export function maxInputLength(max: number): InputGuardrail {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`maxInputLength: max must be a positive integer, got ${max}`);
  return {
    name: 'maxInputLength',
    check: ({ text }) =>
      text.length > max ? { action: 'reject', reason: `the input is ${text.length} characters long, over the limit of ${max}` } : undefined,
  };
}

/** Options of {@link denyPatterns}. */
export interface DenyPatternsOptions {
  /** Match string patterns without regard to case. Default true. */
  ignoreCase?: boolean;
  /** The rejection's reason. Default: `the input matches a denied pattern (<pattern>)`. */
  reason?: string;
}

/**
 * A guardrail that rejects input matching any of `patterns` (regular expressions; strings are
 * compiled as their source, case-insensitively unless told otherwise). Throws a SyntaxError for a
 * string that is not a valid regular expression.
 */
export function denyPatterns(patterns: readonly (string | RegExp)[], options: DenyPatternsOptions = {}): InputGuardrail {
  const flags = options.ignoreCase === false ? '' : 'i';
  const compiled = patterns.map((pattern) => (typeof pattern === 'string' ? new RegExp(pattern, flags) : pattern));
  return {
    name: 'denyPatterns',
    check: ({ text }) => {
      for (const pattern of compiled) {
        pattern.lastIndex = 0;
        if (pattern.test(text)) return { action: 'reject', reason: options.reason ?? `the input matches a denied pattern (${pattern.source})` };
      }
      return undefined;
    },
  };
}
