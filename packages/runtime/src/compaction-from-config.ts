import { dropOldestTurns, summarizeOlderTurns, truncateToolResults, type CompactionOptions, type CompactionStrategy, type Provider } from '@troupe/core';
import { COMPACTION_STRATEGIES, type CompactionConfig, type CompactionStrategyName } from './config/graph-config.js';

/**
 * The core's compaction options for an agent's `compaction:` config: its threshold, and its steps
 * in order (all three when not named), the summary written by `model` (`summarizerOf` gives a
 * fresh provider for that key of `models`, and the model's name) or else by the agent's own model.
 */
export function compactionOptions(config: CompactionConfig, summarizerOf: (modelKey: string) => { provider: Provider; model: string }): CompactionOptions {
  const step = (name: CompactionStrategyName): CompactionStrategy => {
    switch (name) {
      case 'tool-results':
        return truncateToolResults(config.toolResultBudget === undefined ? {} : { budgetTokens: config.toolResultBudget });
      case 'summary':
        return summarizeOlderTurns(config.model === undefined ? {} : { summarizer: summarizerOf(config.model) });
      case 'drop-oldest':
        return dropOldestTurns();
    }
  };
  const options: CompactionOptions = { strategies: (config.strategies ?? COMPACTION_STRATEGIES).map(step) };
  if (config.threshold !== undefined) options.threshold = config.threshold;
  return options;
}
