import { ErrorCode, TroupeError } from './errors.js';
import type { ToolDefinition } from './provider.js';
import type { SchemaValidator } from './schema-validator.js';
import type { Tool, ToolSource } from './tool.js';
import { toolsByName } from './tools-by-name.js';

/** One version of an agent's tools: by name, and as the model sees them. */
export interface ToolSnapshot {
  readonly byName: ReadonlyMap<string, Tool>;
  readonly definitions: readonly ToolDefinition[];
}

/** Whether `tools` is a {@link ToolSource} rather than a fixed list. */
export function isToolSource(tools: readonly Tool[] | ToolSource): tools is ToolSource {
  return !Array.isArray(tools);
}

/** The snapshot of an empty tool list. */
const NO_TOOLS: ToolSnapshot = { byName: new Map(), definitions: Object.freeze([]) };

/**
 * An agent's tools, fixed or from a {@link ToolSource}: read once per model call and per tool
 * batch. A source that returns the same array as before costs a comparison; a new array is
 * indexed and its schemas compiled once. In a changed list, a tool whose schema does not compile
 * or whose name repeats is left out and reported (a fixed list throws instead, at construction).
 */
export class ToolSet {
  readonly #validator: SchemaValidator;
  readonly #onProblem: (message: string) => void;
  /** Where the tools come from when they can change (a `ToolSource`); undefined for a fixed list (`#array`). */
  #source: ToolSource | undefined;
  #array: readonly Tool[] | undefined;
  #snapshot: ToolSnapshot | undefined;

  constructor(tools: readonly Tool[] | ToolSource, validator: SchemaValidator, onProblem: (message: string) => void) {
    this.#validator = validator;
    this.#onProblem = onProblem;
    this.replace(tools);
  }

  /** Uses `tools` from now on; a fixed list is checked at once (throws a typed error for a bad tool, changing nothing). */
  replace(tools: readonly Tool[] | ToolSource): void {
    if (isToolSource(tools)) {
      this.#source = tools;
      this.#array = undefined;
      this.#snapshot = undefined;
      return;
    }
    const snapshot = this.#index(tools, (message) => {
      throw new TroupeError(ErrorCode.InvalidTool, message);
    });
    this.#source = undefined;
    this.#snapshot = snapshot;
    this.#array = tools;
  }

  /** The tools now. */
  current(): ToolSnapshot {
    const source = this.#source;
    // A fixed list was indexed when it was given.
    if (source === undefined) return this.#snapshot as ToolSnapshot;
    const array = source.current();
    if (array !== this.#array || this.#snapshot === undefined) {
      this.#snapshot = this.#index(array, this.#onProblem);
      this.#array = array;
    }
    return this.#snapshot;
  }

  #index(tools: readonly Tool[], problem: (message: string) => void): ToolSnapshot {
    // Many an agent (a sub-agent) has no tools: they all share one snapshot (nothing changes one).
    if (tools.length === 0) return NO_TOOLS;
    const names = new Set<string>();
    const kept: Tool[] = [];
    for (const tool of tools) {
      if (names.has(tool.name)) {
        problem(`two tools are named "${tool.name}"`);
        continue;
      }
      try {
        this.#validator.compile(tool.parameters);
      } catch (error) {
        problem(`tool "${tool.name}": ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      names.add(tool.name);
      kept.push(tool);
    }
    // A copy of the exact size (a pushed-to array reserves room for 17): the caller may change its array later.
    const usable = kept.length === tools.length ? tools.slice() : kept;
    const definitions = usable.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
    return { byName: toolsByName(usable), definitions };
  }
}
