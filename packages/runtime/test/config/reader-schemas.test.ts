/**
 * Proves each graph reader carries the JSON Schema of what it accepts: a number reader accepts
 * exactly the numbers its schema does (both come from one set of bounds), an object reader's
 * schema lists its keys, the required ones and their descriptions and allows no other key, lists
 * and records say their item schema, emptiness and key names, a `${NAME}` is allowed where the
 * loader substitutes one, named definitions are built once and two readers cannot claim one name,
 * and wrapping a reader leaves the original's schema alone.
 */
import { SchemaValidator } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { field, objectReader } from '../../src/config/object-reader.js';
import { createReadState, ReadContext } from '../../src/config/read-context.js';
import { definition, entryReader, reader, type Reader } from '../../src/config/reader.js';
import { SchemaScope } from '../../src/config/schema-scope.js';
import {
  listReader,
  numberReader,
  oneOfReader,
  readNonNegativeInteger,
  readNonNegativeNumber,
  readPositiveInteger,
  readPositiveNumber,
  readString,
  recordReader,
} from '../../src/config/yaml-readers.js';
import { YamlSource } from '../../src/config/yaml-source.js';

/** What `read` makes of a YAML value, and the problems it reports. */
function readYaml<T>(read: Reader<T>, text: string): { value: T | undefined; problems: number } {
  const ctx = new ReadContext(YamlSource.parse('x.yaml', text), createReadState({}));
  const value = read(ctx, ctx.rootSlot('x'));
  return { value, problems: ctx.state.problems.length };
}

describe('reader schemas', () => {
  it('accept exactly the numbers their readers accept', () => {
    const readers = {
      readPositiveInteger,
      readNonNegativeInteger,
      readPositiveNumber,
      readNonNegativeNumber,
      topP: numberReader('a number above 0 and at most 1', { exclusiveMinimum: 0, maximum: 1 }),
      temperature: numberReader('a number from 0 to 2', { minimum: 0, maximum: 2 }),
    };
    for (const [name, read] of Object.entries(readers)) {
      const scope = new SchemaScope();
      const validate = new SchemaValidator().compile({ ...read.schema(scope), definitions: scope.definitions() });
      for (const value of [-1, 0, 0.5, 1, 1.5, 2, 2.5, 3]) {
        expect({ name, value, schema: validate(value).ok }).toEqual({ name, value, schema: readYaml(read, String(value)).problems === 0 });
      }
    }
  });

  it('let a ${NAME} through where the loader substitutes one, and say what it is once', () => {
    const scope = new SchemaScope();
    expect(readPositiveInteger.schema(scope)).toEqual({ anyOf: [{ type: 'integer', minimum: 1 }, { $ref: '#/definitions/variable' }] });
    expect(oneOfReader(['a', 'b']).schema(scope)).toEqual({ anyOf: [{ enum: ['a', 'b'] }, { $ref: '#/definitions/variable' }] });
    expect(readString.schema(scope)).toEqual({ type: 'string' });
    expect(Object.keys(scope.definitions())).toEqual(['variable']);
  });

  it('describe an object by its fields', () => {
    const read = objectReader({ name: field(readString, { required: true, description: 'The name.' }), size: field(readPositiveInteger, { default: 1 }) });
    expect(read.schema(new SchemaScope())).toEqual({
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', description: 'The name.' },
        size: { anyOf: [{ type: 'integer', minimum: 1 }, { $ref: '#/definitions/variable' }], default: 1 },
      },
      additionalProperties: false,
    });
  });

  it('describe lists and records', () => {
    const scope = new SchemaScope();
    expect(listReader(readString, { nonEmpty: true }).schema(scope)).toEqual({ type: 'array', items: { type: 'string' }, minItems: 1 });
    const named = entryReader(readString.schema, (ctx, entry) => readString(ctx, entry.slot), { keys: { type: 'string', pattern: '^[a-z]+$' } });
    expect(recordReader(named, { nonEmpty: true }).schema(scope)).toEqual({
      type: 'object',
      minProperties: 1,
      propertyNames: { type: 'string', pattern: '^[a-z]+$' },
      additionalProperties: { type: 'string' },
    });
  });

  it('build a named definition once, and refuse two owners of one name', () => {
    const scope = new SchemaScope();
    let builds = 0;
    const once = definition('thing', () => {
      builds += 1;
      return { type: 'string' };
    });
    expect(once(scope)).toEqual({ $ref: '#/definitions/thing' });
    expect(once(scope)).toEqual({ $ref: '#/definitions/thing' });
    expect(builds).toBe(1);
    expect(scope.definitions()).toEqual({ thing: { type: 'string' } });
    expect(() => definition('thing', () => ({ type: 'number' }))(scope)).toThrow('two readers define the JSON Schema definition "thing"');
  });

  it('leave the schema of a wrapped reader alone', () => {
    const wrapped = reader({ type: 'string', pattern: '^x' }, readString);
    expect(wrapped.schema(new SchemaScope())).toEqual({ type: 'string', pattern: '^x' });
    expect(readString.schema(new SchemaScope())).toEqual({ type: 'string' });
    expect(readYaml(wrapped, 'xyz')).toEqual({ value: 'xyz', problems: 0 });
  });
});
