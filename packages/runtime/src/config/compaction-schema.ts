import { isMap } from 'yaml';
import { COMPACTION_STRATEGIES, type CompactionConfig, type CompactionStrategyName } from './graph-config.js';
import { field, objectReader } from './object-reader.js';
import type { Slot } from './read-context.js';
import { reader, type Reader } from './reader.js';
import { numberReader, oneOfReader, readPositiveInteger, referenceReader, uniqueListReader } from './yaml-readers.js';

const readThreshold = numberReader('a number greater than 0 and at most 1', { exclusiveMinimum: 0, maximum: 1 });

/** The cascade's steps: known names, each at most once, in the order written. */
const readStrategies: Reader<CompactionStrategyName[]> = uniqueListReader(oneOfReader(COMPACTION_STRATEGIES), 'strategy');

/** The keys of `compaction`, with their readers. */
export const COMPACTION_FIELDS = {
  threshold: field(readThreshold, { default: 0.8, description: 'Fraction of the context window at which the context is compacted before a model call.' }),
  strategies: field(readStrategies, {
    description: 'The steps, in the order they run; each runs only when the ones before left the context over the threshold.',
  }),
  model: field(referenceReader('model'), { description: "A key of models: writes the summaries instead of the agent's own model." }),
  toolResultBudget: field(readPositiveInteger, { default: 1000, description: 'Tokens an old tool result keeps (its head and tail).' }),
};

const readFields = objectReader(COMPACTION_FIELDS);

/** The options that only one step uses, reported when that step is left out of `strategies`. */
const USED_BY = { model: 'summary', toolResultBudget: 'tool-results' } as const;

/**
 * `agents.<name>.compaction`: `threshold` (0 < t ≤ 1), `strategies` (a list of `tool-results`,
 * `summary`, `drop-oldest`, in the order they run), `model` (a key of `models`, for the
 * summaries) and `toolResultBudget` (tokens). An option for a step that `strategies` leaves out is
 * reported at the option.
 */
export const readCompaction: Reader<CompactionConfig> = reader(readFields.schema, (ctx, slot) => {
  const values = readFields(ctx, slot);
  if (values === undefined) return undefined;
  const strategies = values.strategies ?? COMPACTION_STRATEGIES;
  const node = slot.node;
  for (const [key, step] of Object.entries(USED_BY)) {
    if (values[key as keyof typeof USED_BY] === undefined || strategies.includes(step)) continue;
    const at: Slot = { path: `${slot.path}.${key}`, node: node !== null && isMap(node) ? ((node.get(key, true) as Slot['node']) ?? null) : null };
    ctx.report(
      at,
      `${slot.path}.${key} is for the "${step}" strategy, which ${slot.path}.strategies leaves out`,
      `add "${step}" to the strategies or remove ${key}`,
    );
  }
  const config: CompactionConfig = {};
  if (values.threshold !== undefined) config.threshold = values.threshold;
  if (values.strategies !== undefined) config.strategies = values.strategies;
  if (values.model !== undefined) config.model = values.model;
  if (values.toolResultBudget !== undefined) config.toolResultBudget = values.toolResultBudget;
  return config;
});
