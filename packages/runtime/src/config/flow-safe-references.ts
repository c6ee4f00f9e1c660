import { visit, type Document } from 'yaml';

/**
 * The characters YAML would read as syntax inside an unquoted `${…}` (flow collections, a
 * comment, a `key: value`), each with a private-use stand-in of the same length.
 */
const STAND_INS: ReadonlyMap<string, string> = new Map([
  ['{', '\uE000'],
  ['}', '\uE001'],
  ['[', '\uE002'],
  [']', '\uE003'],
  [',', '\uE004'],
  ['#', '\uE005'],
  [':', '\uE006'],
]);
const ORIGINALS: ReadonlyMap<string, string> = new Map([...STAND_INS].map(([original, standIn]) => [standIn, original]));
const ANY_STAND_IN = /[\uE000-\uE006]/;
/**
 * A well-formed reference (`${NAME}`, `${NAME:-fallback}`) on one line. A fallback holds no quote,
 * so a reference never reaches past the end of a quoted string (`"cost ${OPEN" }`).
 */
const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}\n"']*)?\}/g;

/**
 * `text` with the syntax characters inside every `${…}` replaced by stand-ins, so that
 * `limits: { maxTurns: ${MAX_TURNS:-5} }` parses as a flow mapping holding one plain scalar
 * rather than as a nested mapping. Offsets do not move (one UTF-16 unit for one), so positions in
 * the parsed document are positions in `text`. A text that already holds a stand-in is returned
 * as is: it parses as it always did.
 */
export function maskReferences(text: string): string {
  if (ANY_STAND_IN.test(text)) return text;
  return text.replace(REFERENCE, (reference) => reference.replace(/[{}[\],#:]/g, (c) => STAND_INS.get(c) ?? c));
}

/** Puts the characters {@link maskReferences} replaced back into every string scalar (keys included) of `doc`. */
export function unmaskReferences(doc: Document.Parsed): void {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && ANY_STAND_IN.test(node.value)) node.value = node.value.replace(/[\uE000-\uE006]/g, (c) => ORIGINALS.get(c) ?? c);
    },
  });
}
