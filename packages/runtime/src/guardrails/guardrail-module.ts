import type { InputGuardrail } from '@troupe/core';
import { importCodeModule } from '../config/code-module.js';

/** What loading a guardrail module gave: its guardrails in export order, or why it gives none. */
export type GuardrailModuleResult = { ok: true; guardrails: InputGuardrail[] } | { ok: false; problem: string; hint?: string };

/** Why `value` is not an `InputGuardrail` (a string `name` and a `check` function), or undefined. */
function guardrailProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not a guardrail object';
  const guardrail = value as Record<string, unknown>;
  if (typeof guardrail['name'] !== 'string' || guardrail['name'] === '') return 'it has no string "name"';
  if (typeof guardrail['check'] !== 'function') return `${guardrail['name']} has no "check" function`;
  return undefined;
}

/**
 * Loads a graph's guardrail module (`guardrails: [{ module: ./guards/pii.ts }]`, imported like a
 * tool module) and returns the input guardrails it exports: its default export (one guardrail or
 * a list) and every named export that has a `check` function, each once, in that order. Never
 * throws for a bad module: see `importCodeModule`; a module exporting no guardrail, or a default
 * export that is not one, is a `problem`.
 */
export async function loadGuardrailModule(file: string): Promise<GuardrailModuleResult> {
  const imported = await importCodeModule(file);
  if (!imported.ok) return imported;
  const guardrails: InputGuardrail[] = [];
  const fallback = imported.exports['default'];
  if (fallback !== undefined) {
    for (const [index, value] of (Array.isArray(fallback) ? fallback : [fallback]).entries()) {
      const problem = guardrailProblem(value);
      if (problem !== undefined)
        return {
          ok: false,
          problem: `${Array.isArray(fallback) ? `item ${index} of the default export` : 'the default export'} is not a valid guardrail: ${problem}`,
        };
      if (!guardrails.includes(value as InputGuardrail)) guardrails.push(value as InputGuardrail);
    }
  }
  for (const [name, value] of Object.entries(imported.exports)) {
    if (name === 'default' || typeof (value as { check?: unknown } | null)?.check !== 'function') continue;
    const problem = guardrailProblem(value);
    if (problem !== undefined) return { ok: false, problem: `export "${name}" is not a valid guardrail: ${problem}` };
    if (!guardrails.includes(value as InputGuardrail)) guardrails.push(value as InputGuardrail);
  }
  if (guardrails.length === 0)
    return { ok: false, problem: 'exports no guardrail', hint: 'export default { name, check(input) { … } }, or export guardrails by name' };
  return { ok: true, guardrails };
}
