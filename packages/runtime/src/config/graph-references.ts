import { didYouMean } from './did-you-mean.js';
import { ReadContext, type ReadState, type ReferenceKind } from './read-context.js';

const PLURAL: Record<ReferenceKind, string> = {
  model: 'models',
  agent: 'agents',
  tool: 'tools',
  mcpServer: 'MCP servers',
  pipeline: 'pipelines',
  entry: 'agents or pipelines',
};
/** How a kind is named in messages when its name is not the word itself. */
const LABEL: Partial<Record<ReferenceKind, string>> = { mcpServer: 'MCP server', entry: 'agent or pipeline' };

/**
 * Reports every reference to a name that is not defined: `unknown model "demoo" in
 * agents.assistant.model`, with a "did you mean" hint or the list of what is defined. Runs once
 * every section and referenced file has been read.
 */
export function checkReferences(state: ReadState): void {
  for (const reference of state.references) {
    // The entry names an agent or a pipeline.
    const defined =
      reference.kind === 'entry'
        ? new Set([...(state.definitions.get('agent') ?? []), ...(state.definitions.get('pipeline') ?? [])])
        : (state.definitions.get(reference.kind) ?? new Set<string>());
    if (defined.has(reference.name)) continue;
    const plural = PLURAL[reference.kind];
    const available = [...defined];
    const hint =
      didYouMean(reference.name, available) ?? (available.length === 0 ? `no ${plural} are defined` : `available ${plural}: ${available.join(', ')}`);
    new ReadContext(reference.source, state).report(
      reference.slot,
      `unknown ${LABEL[reference.kind] ?? reference.kind} "${reference.name}" in ${reference.slot.path}`,
      hint,
    );
  }
}
