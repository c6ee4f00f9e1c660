import { dirname, isAbsolute, join } from 'node:path';
import type { ScriptStep } from '@troupe/providers';
import type { ScriptFileRef } from './model-schema.js';
import { describeReadError, type ReadTextFile } from './read-text-file.js';
import { readScript } from './script-schema.js';
import { YamlSource } from './yaml-source.js';

/**
 * Loads the steps of a `scriptFile`, resolved against the directory of the file that names it.
 * Problems (unreadable file, YAML errors, bad steps) are reported with the script file's own
 * positions, or at the `scriptFile` value when the file cannot be read; then `undefined`.
 */
export async function loadScriptFile(ref: ScriptFileRef, readTextFile: ReadTextFile): Promise<ScriptStep[] | undefined> {
  const path = isAbsolute(ref.path) ? ref.path : join(dirname(ref.ctx.source.file), ref.path);
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (error) {
    ref.ctx.report(ref.slot, `cannot read script file "${ref.path}": ${describeReadError(error)}`, `looked for ${path}`);
    return undefined;
  }
  const source = YamlSource.parse(path, text);
  const ctx = ref.ctx.withSource(source);
  const syntax = source.syntaxProblems();
  if (syntax.length > 0) {
    ctx.state.problems.push(...syntax);
    return undefined;
  }
  return readScript(ctx, ctx.rootSlot('script'));
}
