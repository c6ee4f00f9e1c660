import type { Tool } from './tool.js';

/** Up to this many tools are looked up by walking their list rather than through a hash table. */
const SMALL = 8;

/**
 * A list of tools with distinct names, by name: a `Map`, or for a few tools (most agents have
 * one to a handful) the list itself, searched by name. A `Map` and its hash table cost about 200
 * bytes even for one tool, and every agent keeps one for as long as it lives (waiting ones too).
 */
export function toolsByName(tools: readonly Tool[]): ReadonlyMap<string, Tool> {
  return tools.length <= SMALL ? new ToolList(tools) : new Map(tools.map((tool) => [tool.name, tool]));
}

/** A few tools as a read-only map by name. What is seldom read (iteration, on an unknown tool's error) goes through a `Map` made then. */
class ToolList implements ReadonlyMap<string, Tool> {
  readonly #tools: readonly Tool[];

  constructor(tools: readonly Tool[]) {
    this.#tools = tools;
  }

  get size(): number {
    return this.#tools.length;
  }

  get(name: string): Tool | undefined {
    for (const tool of this.#tools) if (tool.name === name) return tool;
    return undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  forEach(callback: (tool: Tool, name: string, map: ReadonlyMap<string, Tool>) => void, thisArg?: unknown): void {
    for (const tool of this.#tools) callback.call(thisArg, tool, tool.name, this);
  }

  entries(): MapIterator<[string, Tool]> {
    return this.#map().entries();
  }

  keys(): MapIterator<string> {
    return this.#map().keys();
  }

  values(): MapIterator<Tool> {
    return this.#map().values();
  }

  [Symbol.iterator](): MapIterator<[string, Tool]> {
    return this.entries();
  }

  #map(): Map<string, Tool> {
    return new Map(this.#tools.map((tool) => [tool.name, tool]));
  }
}
