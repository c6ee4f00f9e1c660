import type { GuardrailRegistry } from '../guardrails/guardrail-registry.js';
import type { ToolCatalog } from './tool-catalog.js';

/** A JSON Schema (draft-07), as plain JSON. */
export type JsonSchema = { [keyword: string]: unknown };

/** What a {@link SchemaScope} describes besides the format itself. */
export interface SchemaScopeOptions {
  /** The tools whose settings the schema spells out (the loader's default catalog). */
  tools?: ToolCatalog;
  /** The guardrails whose settings the schema spells out (the loader's default registry). */
  guardrails?: GuardrailRegistry;
}

/** The `${NAME}` reference a number, boolean or enum field also accepts (the loader substitutes it, then converts). */
const VARIABLE: JsonSchema = {
  type: 'string',
  pattern: '\\$\\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\\}',
  description: 'A ${NAME} or ${NAME:-fallback} reference, substituted when the file is loaded and then read as the field wants (a number, true or false).',
};

/**
 * What readers build their JSON Schema with: the named definitions found so far (so the
 * published schema says `$ref: '#/definitions/agent'` rather than repeating an agent's body), and
 * the tool catalog and guardrail registry whose settings it spells out. One scope per schema.
 */
export class SchemaScope {
  readonly tools: ToolCatalog | undefined;
  readonly guardrails: GuardrailRegistry | undefined;
  readonly #definitions = new Map<string, { owner: unknown; schema: JsonSchema | undefined }>();

  constructor(options: SchemaScopeOptions = {}) {
    this.tools = options.tools;
    this.guardrails = options.guardrails;
  }

  /**
   * A `$ref` to the definition `name`, built with `build` the first time. `owner` identifies
   * what defines it: two different owners of one name are a programming error (one would
   * silently describe the other's values), so that throws.
   */
  define(name: string, owner: unknown, build: () => JsonSchema): JsonSchema {
    const known = this.#definitions.get(name);
    if (known !== undefined && known.owner !== owner) throw new Error(`two readers define the JSON Schema definition "${name}"`);
    if (known === undefined) {
      // Registered before it is built, so a definition that refers to itself ends.
      const entry: { owner: unknown; schema: JsonSchema | undefined } = { owner, schema: undefined };
      this.#definitions.set(name, entry);
      entry.schema = build();
    }
    return { $ref: `#/definitions/${name}` };
  }

  /** `schema`, or a `${NAME}` reference (see {@link VARIABLE}). */
  orVariable(schema: JsonSchema): JsonSchema {
    return { anyOf: [schema, this.define('variable', VARIABLE, () => VARIABLE)] };
  }

  /** The definitions referred to so far, by name, in the order they were first used. */
  definitions(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const [name, { schema }] of this.#definitions) if (schema !== undefined) out[name] = schema;
    return out;
  }
}
