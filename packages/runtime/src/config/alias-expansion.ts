import { type Alias, type Document, isAlias, isCollection, isPair, type Node, visit } from 'yaml';

/**
 * The most values all of a file's aliases may stand for together. A graph uses aliases for a few
 * shared settings; a file past this is an alias bomb ("billion laughs": each level a list of
 * aliases of the level below), which the loader would otherwise expand without end.
 */
export const MAX_ALIASED_VALUES = 100_000;

/** Marks a node whose size is being counted: meeting it again below itself is a cycle. */
const COUNTING = -1;

/**
 * The first alias of `doc` (in file order) at which the values its aliases stand for pass
 * {@link MAX_ALIASED_VALUES} in all, or that refers to a value containing itself; `undefined`
 * when there is none. Each value is counted once (memoized), so this is linear in the file.
 */
export function excessiveAlias(doc: Document.Parsed): { alias: Alias; cyclic: boolean } | undefined {
  const sizes = new Map<unknown, number>();
  let aliased = 0;
  let found: { alias: Alias; cyclic: boolean } | undefined;
  visit(doc, {
    Alias(_, alias) {
      const size = sizeOf(alias, doc, sizes);
      aliased += size;
      if (!Number.isFinite(size) || aliased > MAX_ALIASED_VALUES) {
        found = { alias, cyclic: !Number.isFinite(size) };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** How many values `start` stands for, aliases expanded; `Infinity` for a cycle. Iterative: nesting may be deep. */
function sizeOf(start: Node, doc: Document.Parsed, sizes: Map<unknown, number>): number {
  const stack: Node[] = [start];
  while (stack.length > 0) {
    const node = stack[stack.length - 1] as Node;
    const known = sizes.get(node);
    const children = childrenOf(node, doc);
    if (known === undefined) {
      sizes.set(node, COUNTING);
      for (const child of children) {
        const size = sizes.get(child);
        // Only the nodes on the current path are still being counted: this one contains itself.
        if (size === COUNTING) return Number.POSITIVE_INFINITY;
        if (size === undefined) stack.push(child);
      }
      continue;
    }
    stack.pop();
    if (known !== COUNTING) continue;
    let total = 1;
    for (const child of children) total += sizes.get(child) ?? 0;
    sizes.set(node, total);
  }
  return sizes.get(start) ?? 0;
}

/** The nodes directly below `node`: an alias's target, a collection's items, a pair's key and value. */
function childrenOf(node: unknown, doc: Document.Parsed): Node[] {
  if (isAlias(node)) {
    const target = node.resolve(doc);
    return target === undefined ? [] : [target];
  }
  if (isPair(node)) return [node.key, node.value].filter((part): part is Node => part !== null && typeof part === 'object');
  if (isCollection(node)) return (node.items as unknown[]).filter((item): item is Node => item !== null && typeof item === 'object');
  return [];
}
