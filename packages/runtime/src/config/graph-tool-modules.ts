import type { Tool } from '@troupe/core';
import type { AgentConfig } from './graph-config.js';
import type { ReadContext } from './read-context.js';
import type { ToolCatalog } from './tool-catalog.js';
import { loadToolModule, type ToolModuleResult } from './tool-module.js';

/**
 * Loads every tool module the graph's agents list (each file once), adds the names of its tools
 * to each listing agent's `tools` and defines them for the reference check (so `permissions` may
 * name them), and returns the tools by name. Problems are reported at each `module:` that names
 * the module: a module that is missing, fails to load or exports no valid tool, and a tool whose
 * name is a built-in tool's or another module's tool's.
 */
export async function loadGraphToolModules(ctx: ReadContext, agents: Record<string, AgentConfig>, catalog: ToolCatalog): Promise<Record<string, Tool>> {
  const references = ctx.state.toolModules;
  const files = [...new Set(references.map((reference) => reference.file))];
  const results = new Map<string, ToolModuleResult>(await Promise.all(files.map(async (file) => [file, await loadToolModule(file)] as const)));
  const builtins = new Set(catalog.names());
  const byName: Record<string, Tool> = {};
  const from = new Map<string, string>();
  for (const reference of references) {
    const at = ctx.withSource(reference.source);
    const result = results.get(reference.file);
    if (result === undefined) continue;
    if (!result.ok) {
      at.report(reference.slot, `tool module ${reference.shown}: ${result.problem}`, result.hint);
      continue;
    }
    const agent = Object.hasOwn(agents, reference.agent) ? agents[reference.agent] : undefined;
    for (const tool of result.tools) {
      if (builtins.has(tool.name)) {
        at.report(reference.slot, `tool "${tool.name}" of ${reference.shown} has the name of a built-in tool`, 'rename it');
        continue;
      }
      const owner = byName[tool.name];
      if (owner !== undefined && owner !== tool) {
        at.report(
          reference.slot,
          `tool "${tool.name}" of ${reference.shown} has the name of a tool of ${from.get(tool.name) ?? 'another module'}`,
          'rename one of them',
        );
        continue;
      }
      byName[tool.name] = tool;
      from.set(tool.name, reference.shown);
      ctx.define('tool', tool.name);
      if (agent !== undefined && !agent.tools.includes(tool.name)) agent.tools.push(tool.name);
    }
  }
  return byName;
}
