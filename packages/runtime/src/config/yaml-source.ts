import { isAlias, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { excessiveAlias, MAX_ALIASED_VALUES } from './alias-expansion.js';
import { maskReferences, unmaskReferences } from './flow-safe-references.js';
import type { GraphProblem } from './graph-file-error.js';

/** A 1-based line and column. */
export interface SourcePosition {
  line: number;
  col: number;
}

/**
 * One parsed YAML file that knows where each of its nodes came from, so every problem can be
 * reported as `file:line:col`. `file` is the path as it should be shown to the user.
 */
export class YamlSource {
  readonly file: string;
  readonly text: string;
  readonly doc: Document.Parsed;
  readonly #lines: LineCounter;

  private constructor(file: string, text: string, doc: Document.Parsed, lines: LineCounter) {
    this.file = file;
    this.text = text;
    this.doc = doc;
    this.#lines = lines;
  }

  /**
   * Parses `text`; syntax errors are kept for {@link syntaxProblems}, never thrown. A `${…}`
   * reference reads as one plain scalar wherever it stands, inside flow collections too.
   */
  static parse(file: string, text: string): YamlSource {
    const lines = new LineCounter();
    const masked = maskReferences(text);
    const doc = parseDocument(masked, { lineCounter: lines, prettyErrors: false });
    if (masked !== text) unmaskReferences(doc);
    return new YamlSource(file, text, doc, lines);
  }

  /** The document's root node, or `null` for an empty file. Aliases are resolved. */
  get root(): Node | null {
    return this.resolve(this.doc.contents);
  }

  /**
   * YAML syntax errors (bad indentation, duplicate keys, unclosed brackets…), in file order, and
   * then aliases that would expand without end (an alias bomb, an alias inside its own value):
   * a document with any of them is not read further.
   */
  syntaxProblems(): GraphProblem[] {
    const problems = this.doc.errors.map((error) => this.problemAt(error.pos[0], error.message));
    if (problems.length > 0) return problems;
    const excessive = excessiveAlias(this.doc);
    if (excessive === undefined) return [];
    const at = this.offsetOf(excessive.alias);
    const name = `*${excessive.alias.source}`;
    return [
      excessive.cyclic
        ? this.problemAt(at, `alias ${name} refers to a value that contains it`, 'write the value out instead')
        : this.problemAt(
            at,
            `the aliases up to ${name} stand for more than ${MAX_ALIASED_VALUES} values in all (an alias bomb?)`,
            'write shared values out, or alias fewer or smaller ones',
          ),
    ];
  }

  /** The node an alias points to; any other node unchanged. */
  resolve(node: Node | null | undefined): Node | null {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return node.resolve(this.doc) ?? null;
    return node;
  }

  /** The position of a source offset. */
  positionAt(offset: number): SourcePosition {
    const { line, col } = this.#lines.linePos(Math.max(0, Math.min(offset, this.text.length)));
    return { line, col };
  }

  /** The start offset of a node, or 0 when it has no range. */
  offsetOf(node: Node): number {
    return node.range?.[0] ?? 0;
  }

  /** The raw source text a node spans (quotes included). */
  sourceOf(node: Node): string {
    const range = node.range;
    return range === undefined || range === null ? '' : this.text.slice(range[0], range[1]);
  }

  /** True for an empty value (`key:` with nothing after it), which has no useful position. */
  isEmpty(node: Node): boolean {
    return isScalar(node) && node.value === null && this.sourceOf(node).trim() === '';
  }

  /** A problem at a source offset. */
  problemAt(offset: number, message: string, hint?: string): GraphProblem {
    const { line, col } = this.positionAt(offset);
    const problem: GraphProblem = { file: this.file, line, col, message };
    if (hint !== undefined) problem.hint = hint;
    return problem;
  }
}
