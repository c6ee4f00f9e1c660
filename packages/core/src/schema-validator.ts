import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/** The outcome of validating a value: ok, or the problems, each naming its JSON path. */
export type ValidationResult = { ok: true } | { ok: false; problems: string[] };

/** A compiled validator for one schema. */
export type Validator = (value: unknown) => ValidationResult;

/**
 * Compiles JSON Schemas (draft-07 and the common 2019/2020 keywords) into fast validators.
 * One instance per agent; compiled validators are cached per schema object.
 */
export class SchemaValidator {
  readonly #ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  readonly #cache = new WeakMap<object, Validator>();
  /** Validators by schema text: tool instances made per agent carry equal schemas in new objects. */
  readonly #byText = new Map<string, Validator>();

  /** Returns the validator of `schema`; throws a TypeError if the schema itself is invalid. */
  compile(schema: Record<string, unknown>): Validator {
    const cached = this.#cache.get(schema);
    if (cached !== undefined) return cached;
    const text = JSON.stringify(schema);
    const same = this.#byText.get(text);
    if (same !== undefined) {
      this.#cache.set(schema, same);
      return same;
    }
    // `$schema` would make ajv look up a meta-schema it may not have (2020-12); the keywords we
    // validate read the same under every draft.
    const { $schema: _ignored, ...rest } = schema;
    let check: ValidateFunction;
    try {
      check = this.#ajv.compile(rest);
    } catch (error) {
      throw new TypeError(`invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
    }
    const validator: Validator = (value) => (check(value) ? { ok: true } : { ok: false, problems: formatProblems(check.errors ?? []) });
    this.#cache.set(schema, validator);
    this.#byText.set(text, validator);
    return validator;
  }
}

function formatProblems(errors: ErrorObject[]): string[] {
  return errors.map((error) => {
    const path = error.instancePath === '' ? '(root)' : error.instancePath.slice(1).replaceAll('/', '.');
    if (error.keyword === 'required') return `${path === '(root)' ? '' : `${path}.`}${String(error.params['missingProperty'])}: is required`;
    if (error.keyword === 'additionalProperties') return `${path}: unknown property ${JSON.stringify(error.params['additionalProperty'])}`;
    return `${path}: ${error.message ?? 'is invalid'}`;
  });
}

let shared: SchemaValidator | undefined;

/**
 * The validator agents use unless given one. Creating an Ajv instance costs milliseconds and
 * compiled schemas are pure functions of the schema object, so agents share one cache rather
 * than each compiling the same tool schemas again.
 */
export function sharedSchemaValidator(): SchemaValidator {
  shared ??= new SchemaValidator();
  return shared;
}
