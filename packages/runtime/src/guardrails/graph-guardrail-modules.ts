import type { InputGuardrail } from '@troupe/core';
import type { ReadContext } from '../config/read-context.js';
import { loadGuardrailModule, type GuardrailModuleResult } from './guardrail-module.js';

/**
 * Loads every guardrail module the graph's agents list (each file once) and returns their
 * guardrails by the module's absolute path. A module that is missing, fails to load or exports no
 * valid guardrail is reported at each `module:` that names it.
 */
export async function loadGraphGuardrailModules(ctx: ReadContext): Promise<Record<string, InputGuardrail[]>> {
  const references = ctx.state.guardrailModules;
  const files = [...new Set(references.map((reference) => reference.file))];
  const results = new Map<string, GuardrailModuleResult>(await Promise.all(files.map(async (file) => [file, await loadGuardrailModule(file)] as const)));
  const byFile: Record<string, InputGuardrail[]> = {};
  for (const reference of references) {
    const result = results.get(reference.file);
    if (result === undefined) continue;
    if (result.ok) byFile[reference.file] = result.guardrails;
    else ctx.withSource(reference.source).report(reference.slot, `guardrail module ${reference.shown}: ${result.problem}`, result.hint);
  }
  return byFile;
}
