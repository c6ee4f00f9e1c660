/**
 * Mutations of graph files for the loader's fuzz test (graph-files-fuzz.int.test.ts), as
 * fast-check arbitraries: lines deleted or duplicated, values of the wrong type, deep nesting
 * (flow and block), YAML alias bombs and aliases inside their own value, huge strings and binary
 * bytes.
 */
import fc from 'fast-check';

/** One change to a graph file; `at` indexes are taken modulo the line (or byte) count. */
export type GraphMutation =
  | { kind: 'delete'; at: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'wrongType'; at: number; value: string }
  | { kind: 'flowNesting'; at: number; depth: number; open: '[' | '{' }
  | { kind: 'blockNesting'; at: number; depth: number }
  | { kind: 'aliasBomb'; at: number; width: number; depth: number }
  | { kind: 'selfAlias'; at: number; open: '[' | '{' }
  | { kind: 'huge'; at: number; size: number }
  | { kind: 'binary'; at: number; bytes: Uint8Array };

/** Values that are of the wrong type (or no type) almost anywhere in a graph. */
const WRONG_VALUES = [
  '42',
  '-1',
  '3.5',
  '1e400',
  '.nan',
  'true',
  'null',
  '~',
  '[]',
  '{}',
  '"text"',
  '[1, [2, { a: 3 }]]',
  '{ a: 1, b: [x] }',
  '!!binary aGk=',
  '!!timestamp 2020-01-01',
  '!custom x',
  '*undefinedAlias',
  '&anchor x',
  '|',
  '>-',
  "'unterminated",
  '"unterminated',
  '${UNSET_VARIABLE}',
  '${UNSET:-}',
  '- item',
  '? complex',
];

/** An arbitrary {@link GraphMutation}. */
export function graphMutation(): fc.Arbitrary<GraphMutation> {
  const at = fc.nat({ max: 10_000 });
  return fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at }),
    fc.record({ kind: fc.constant('duplicate' as const), at }),
    fc.record({ kind: fc.constant('wrongType' as const), at, value: fc.constantFrom(...WRONG_VALUES) }),
    fc.record({ kind: fc.constant('flowNesting' as const), at, depth: fc.integer({ min: 1, max: 10_000 }), open: fc.constantFrom('[' as const, '{' as const) }),
    fc.record({ kind: fc.constant('blockNesting' as const), at, depth: fc.integer({ min: 1, max: 3_000 }) }),
    fc.record({ kind: fc.constant('aliasBomb' as const), at, width: fc.integer({ min: 2, max: 12 }), depth: fc.integer({ min: 1, max: 12 }) }),
    fc.record({ kind: fc.constant('selfAlias' as const), at, open: fc.constantFrom('[' as const, '{' as const) }),
    fc.record({ kind: fc.constant('huge' as const), at, size: fc.constantFrom(10_000, 200_000, 1_100_000) }),
    fc.record({ kind: fc.constant('binary' as const), at, bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }),
  );
}

/** `text` with `mutations` applied in order, as the bytes of a file. */
export function applyMutations(text: string, mutations: readonly GraphMutation[]): Uint8Array {
  let lines = text.split('\n');
  const binary: { at: number; bytes: Uint8Array }[] = [];
  for (const mutation of mutations) {
    if (mutation.kind === 'binary') binary.push(mutation);
    else lines = applyToLines(lines, mutation);
  }
  let bytes: Uint8Array = Buffer.from(lines.join('\n'), 'utf8');
  for (const { at, bytes: inserted } of binary) {
    const i = at % (bytes.length + 1);
    bytes = Buffer.concat([bytes.subarray(0, i), inserted, bytes.subarray(i)]);
  }
  return bytes;
}

function applyToLines(lines: string[], mutation: Exclude<GraphMutation, { kind: 'binary' }>): string[] {
  const i = mutation.at % Math.max(1, lines.length);
  const line = lines[i] ?? '';
  const out = [...lines];
  switch (mutation.kind) {
    case 'delete':
      out.splice(i, 1);
      return out;
    case 'duplicate':
      out.splice(i, 0, line);
      return out;
    case 'wrongType':
      out[i] = withValue(line, mutation.value);
      return out;
    case 'flowNesting':
      out[i] = withValue(
        line,
        `${mutation.open === '[' ? '['.repeat(mutation.depth) : '{ a: '.repeat(mutation.depth)}${mutation.open === '[' ? ']'.repeat(mutation.depth) : '1 }'.repeat(mutation.depth)}`,
      );
      return out;
    case 'blockNesting': {
      const indent = /^\s*/.exec(line)?.[0] ?? '';
      const nested = Array.from({ length: mutation.depth }, (_, d) => `${indent}${'  '.repeat(d + 1)}k${d}:`);
      out.splice(i + 1, 0, ...nested);
      out[i] = withValue(line, '');
      return out;
    }
    case 'aliasBomb': {
      // The billion laughs: each level is a list of `width` aliases of the level below.
      const levels = [`lol0: &lol0 [${Array.from({ length: mutation.width }, () => '"lol"').join(', ')}]`];
      for (let d = 1; d < mutation.depth; d++) levels.push(`lol${d}: &lol${d} [${Array.from({ length: mutation.width }, () => `*lol${d - 1}`).join(', ')}]`);
      out.splice(0, 0, ...levels);
      const target = i + levels.length;
      out[target] = withValue(out[target] ?? '', `*lol${mutation.depth - 1}`);
      return out;
    }
    case 'selfAlias':
      out[i] = withValue(line, mutation.open === '[' ? '&self [1, *self]' : '&self { type: object, items: *self }');
      return out;
    case 'huge':
      out[i] = withValue(line, `"${'x'.repeat(mutation.size)}"`);
      return out;
  }
}

/** `line` with its value (after `key:` or `- `) replaced by `value`, or `value` appended. */
function withValue(line: string, value: string): string {
  const match = /^(\s*(?:- )?[^\s#:][^:#]*:)(?:\s.*)?$/.exec(line) ?? /^(\s*-)(?:\s.*)?$/.exec(line);
  return match === null ? `${line} ${value}` : `${match[1]} ${value}`;
}
