import { denyPatterns, maxInputLength, TroupeError, type DenyPatternsOptions, type InputGuardrail } from '@troupe/core';
import { GuardrailErrorCode } from '../runtime-error-codes.js';

/**
 * A named guardrail graph files may list (`guardrails: [{ maxInputLength: 4000 }]`).
 *
 * Contract: `create` builds a fresh guardrail from settings that match `settings` (a JSON Schema
 * the loader checks them against, reporting problems at their position); it throws a plain Error
 * (reported at the setting too) for settings the schema cannot rule out, such as a bad regular
 * expression.
 */
export interface GuardrailFactory {
  /** One line saying what it checks. */
  readonly description: string;
  /** A JSON Schema of its settings: what is written after its name. */
  readonly settings: Record<string, unknown>;
  create(settings: unknown): InputGuardrail;
}

/**
 * The guardrails graph files may name. An instance, made by {@link defaultGuardrailRegistry} or
 * `new GuardrailRegistry()`, passed to the loader and to whoever builds agents from the graph.
 */
export class GuardrailRegistry {
  readonly #factories = new Map<string, GuardrailFactory>();

  /** Adds (or replaces) the guardrail `name`. */
  register(name: string, factory: GuardrailFactory): this {
    this.#factories.set(name, factory);
    return this;
  }

  /** The registered names, in registration order. */
  names(): string[] {
    return [...this.#factories.keys()];
  }

  /** The factory of `name`, if registered. */
  factoryOf(name: string): GuardrailFactory | undefined {
    return this.#factories.get(name);
  }

  /** A new guardrail `name` with `settings`; throws `unknown_guardrail` or `invalid_guardrail_settings`. */
  create(name: string, settings: unknown): InputGuardrail {
    const factory = this.#factories.get(name);
    if (factory === undefined) throw new TroupeError(GuardrailErrorCode.Unknown, `unknown guardrail "${name}": known guardrails: ${this.names().join(', ')}`);
    try {
      return factory.create(settings);
    } catch (error) {
      throw new TroupeError(GuardrailErrorCode.InvalidSettings, `guardrail ${name}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
  }
}

const PATTERNS = { type: 'array', items: { type: 'string' }, minItems: 1 };

/**
 * The built-in guardrails (a new registry on each call):
 * - `maxInputLength: <characters>` rejects longer input;
 * - `denyPatterns: [<regex>, …]` (or `{ patterns, ignoreCase, reason }`) rejects input matching
 *   any of them, case-insensitively unless `ignoreCase: false`.
 */
export function defaultGuardrailRegistry(): GuardrailRegistry {
  return new GuardrailRegistry()
    .register('maxInputLength', {
      description: 'rejects input longer than this many characters',
      settings: { type: 'integer', minimum: 1 },
      create: (settings) => maxInputLength(settings as number),
    })
    .register('denyPatterns', {
      description: 'rejects input that matches any of these regular expressions',
      settings: {
        anyOf: [
          PATTERNS,
          {
            type: 'object',
            properties: { patterns: PATTERNS, ignoreCase: { type: 'boolean' }, reason: { type: 'string' } },
            required: ['patterns'],
            additionalProperties: false,
          },
        ],
      },
      create: (settings) => {
        if (Array.isArray(settings)) return denyPatterns(settings as string[]);
        const { patterns, ...options } = settings as { patterns: string[] } & DenyPatternsOptions;
        return denyPatterns(patterns, options);
      },
    });
}
