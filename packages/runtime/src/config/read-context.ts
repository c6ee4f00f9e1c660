import type { Node } from 'yaml';
import { interpolateEnv, type Env } from './env-interpolation.js';
import type { GraphProblem } from './graph-file-error.js';
import type { GuardrailRegistry } from '../guardrails/guardrail-registry.js';
import type { ToolCatalog } from './tool-catalog.js';
import type { YamlSource } from './yaml-source.js';

/**
 * Where a value sits: its dotted path for messages (`agents.assistant.limits`), its node (`null`
 * when absent) and the key node it sits under, used as the position of empty or missing values.
 */
export interface Slot {
  readonly path: string;
  readonly node: Node | null;
  readonly key?: Node;
}

/** The kinds of names one part of a graph can use to point at another. Grows with the format. */
export type ReferenceKind = 'model' | 'agent' | 'tool' | 'mcpServer' | 'pipeline' | 'entry';

/** A name used somewhere that must be defined somewhere else; checked after the whole file is read. */
export interface Reference {
  readonly kind: ReferenceKind;
  readonly name: string;
  readonly source: YamlSource;
  readonly slot: Slot;
}

/** A code module an agent lists (a tool module `- module: ./tools/weather.ts`, or a guardrail module), loaded once the whole file is read. */
export interface ToolModuleReference {
  readonly agent: string;
  /** The absolute path. */
  readonly file: string;
  /** The path as written, for messages. */
  readonly shown: string;
  readonly source: YamlSource;
  readonly slot: Slot;
}

/** What all readers of one load share: the problems, definitions and references found so far, and the env. */
export interface ReadState {
  readonly problems: GraphProblem[];
  /** Names defined so far, by kind; a name counts even when its definition has problems. */
  readonly definitions: Map<ReferenceKind, Set<string>>;
  readonly references: Reference[];
  readonly toolModules: ToolModuleReference[];
  /** The guardrail modules agents list (`guardrails: [{ module: … }]`). */
  readonly guardrailModules: Omit<ToolModuleReference, 'agent'>[];
  readonly env: Env;
  /** The tools agents may name, with their settings (checked as the tool lists are read). */
  readonly tools?: ToolCatalog;
  /** Where a missing API key goes when it is a warning rather than a problem (see `LoadGraphOptions.onMissingKey`). */
  readonly onMissingKey?: (problem: GraphProblem) => void;
  /** The guardrails agents may name, with their settings (checked as the lists are read). */
  readonly guardrails?: GuardrailRegistry;
}

/** What a {@link ReadState} is made with besides the env. */
export interface ReadStateOptions {
  tools?: ToolCatalog;
  onMissingKey?: (problem: GraphProblem) => void;
  guardrails?: GuardrailRegistry;
}

/** A fresh {@link ReadState}. */
export function createReadState(env: Env, options: ReadStateOptions = {}): ReadState {
  return { problems: [], definitions: new Map(), references: [], toolModules: [], guardrailModules: [], env, ...options };
}

/** The path of a child: `a.b`, `a[0]`, or just the key at the top. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/**
 * What a reader works with: the file being read plus the shared {@link ReadState}. Readers report
 * problems and go on, so one pass finds every problem.
 */
export class ReadContext {
  readonly source: YamlSource;
  readonly state: ReadState;

  constructor(source: YamlSource, state: ReadState) {
    this.source = source;
    this.state = state;
  }

  /** The same state, reading another file (a script file the graph refers to). */
  withSource(source: YamlSource): ReadContext {
    return new ReadContext(source, this.state);
  }

  /** The slot of the document root. */
  rootSlot(path = ''): Slot {
    return { path, node: this.source.root };
  }

  /** The offset to report a slot at: its value, or its key when the value is missing or empty. */
  offsetOf(slot: Slot): number {
    if (slot.node !== null && !this.source.isEmpty(slot.node)) return this.source.offsetOf(slot.node);
    if (slot.key !== undefined) return this.source.offsetOf(slot.key);
    return slot.node === null ? 0 : this.source.offsetOf(slot.node);
  }

  /** Records a problem at a slot. */
  report(slot: Slot, message: string, hint?: string): void {
    this.reportAt(this.offsetOf(slot), message, hint);
  }

  /** Records a problem at a source offset. */
  reportAt(offset: number, message: string, hint?: string): void {
    this.state.problems.push(this.source.problemAt(offset, message, hint));
  }

  /** Records a missing API key at a source offset: a problem, or a warning when the load only checks the file. */
  reportMissingKeyAt(offset: number, message: string, hint?: string): void {
    const problem = this.source.problemAt(offset, message, hint);
    if (this.state.onMissingKey === undefined) this.state.problems.push(problem);
    else this.state.onMissingKey(problem);
  }

  /** Records that `name` is defined (so references to it resolve even if its body has problems). */
  define(kind: ReferenceKind, name: string): void {
    let names = this.state.definitions.get(kind);
    if (names === undefined) {
      names = new Set();
      this.state.definitions.set(kind, names);
    }
    names.add(name);
  }

  /** Records a name to check once every definition is known. */
  refer(kind: ReferenceKind, name: string, slot: Slot): void {
    this.state.references.push({ kind, name, source: this.source, slot });
  }

  /**
   * Substitutes `${NAME}` references, reporting each bad one at its own position; `undefined`
   * when there was one, so a half-substituted value does not cause further, misleading problems.
   * In a `secret` (an API key, a header), an unset variable is a missing key (see
   * {@link reportMissingKeyAt}).
   */
  interpolate(text: string, slot: Slot, options: { secret?: boolean } = {}): string | undefined {
    const { value, problems } = interpolateEnv(text, this.state.env);
    if (problems.length === 0) return value;
    const raw = slot.node === null ? '' : this.source.sourceOf(slot.node);
    const base = this.offsetOf(slot);
    let searchFrom = 0;
    for (const problem of problems) {
      // Quotes, escapes and folding shift offsets, so find the reference in the raw source text.
      const found = raw.indexOf(problem.text, searchFrom);
      if (found !== -1) searchFrom = found + problem.text.length;
      const offset = found === -1 ? base : base + found;
      if (problem.kind === 'unset') {
        const report = options.secret === true ? this.reportMissingKeyAt.bind(this) : this.reportAt.bind(this);
        report(
          offset,
          `environment variable "${problem.name}" is not set`,
          `set it, give a fallback with \${${problem.name}:-value}, or write $\${ for a literal \${`,
        );
      } else {
        this.reportAt(offset, `malformed variable reference "${problem.text}"`, 'write ${NAME} or ${NAME:-fallback}, or $${ for a literal ${');
      }
    }
    return undefined;
  }
}
