import { defaultToolRegistry } from '../default-tools.js';
import { loadGraphGuardrailModules } from '../guardrails/graph-guardrail-modules.js';
import { defaultGuardrailRegistry, type GuardrailRegistry } from '../guardrails/guardrail-registry.js';
import { readGraph } from './graph-schema.js';
import type { GraphConfig, ModelConfig } from './graph-config.js';
import { GraphFileError, type GraphProblem } from './graph-file-error.js';
import { checkDelegationCycles } from './delegation-cycles.js';
import { checkReferences } from './graph-references.js';
import { loadGraphToolModules } from './graph-tool-modules.js';
import type { Env } from './env-interpolation.js';
import { createReadState, ReadContext } from './read-context.js';
import { describeReadError, readTextFileFromDisk, type ReadTextFile } from './read-text-file.js';
import { loadScriptFile } from './script-file.js';
import type { ToolCatalog } from './tool-catalog.js';
import { UnknownAgentError } from './unknown-agent-error.js';
import { YamlSource } from './yaml-source.js';

/** Options of {@link loadGraphFile} and {@link parseGraph}. */
export interface LoadGraphOptions {
  /** Variables for `${NAME}` interpolation. Default: `process.env`. */
  env?: Env;
  /** The tools agents may list, with their settings. Default: every tool of `@troupe/tools` (see `defaultToolRegistry`). */
  tools?: ToolCatalog;
  /** The guardrails agents may name, with their settings. Default: the built-in ones (see `defaultGuardrailRegistry`). */
  guardrails?: GuardrailRegistry;
  /** How referenced files (`scriptFile`) are read. Default: the file system. */
  readTextFile?: ReadTextFile;
  /**
   * The agent to run instead of the file's `entry` (what `troupe run --entry` gives); with it the
   * file need not name one. A name the file does not define is an {@link UnknownAgentError}.
   */
  entry?: string;
  /**
   * When given, what only a run needs is not a problem of the file: a vendor model's missing API
   * key, or an unset variable in an API key, a header or an MCP server's `env`, `headers` or
   * `bearerToken` is handed here (a warning, with its position) and the graph loads without it.
   * For checking or drawing a file where the keys are not set (`troupe graph validate`, CI).
   * Default: such a key is a problem, as a run needs it.
   */
  onMissingKey?: (problem: GraphProblem) => void;
}

/**
 * Loads and validates a graph file. Throws {@link GraphFileError} listing every problem at once
 * (an unreadable, binary or oversized file — see `readTextFileFromDisk` —, YAML syntax, wrong
 * types, unknown or missing keys, unknown references, unset variables, unreadable script files,
 * tool or guardrail modules that do not load or export nothing valid), each with file, line and
 * column. Tool and guardrail modules are imported (their code runs). Problems are
 * reported with `file` as given, so relative paths stay relative in messages. Throws
 * {@link UnknownAgentError} when a valid file does not define the `entry` option's agent.
 */
export async function loadGraphFile(file: string, options: LoadGraphOptions = {}): Promise<GraphConfig> {
  const readTextFile = options.readTextFile ?? readTextFileFromDisk;
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (error) {
    throw new GraphFileError(file, [{ file, line: 1, col: 1, message: `cannot read the graph file: ${describeReadError(error)}` }], { cause: error });
  }
  return parseGraph(text, { ...options, file });
}

/** Like {@link loadGraphFile} for text already in memory; `file` names it in problems and anchors relative paths. */
export async function parseGraph(text: string, options: LoadGraphOptions & { file: string }): Promise<GraphConfig> {
  const { file } = options;
  const source = YamlSource.parse(file, text);
  const syntax = source.syntaxProblems();
  // The document of a file with syntax errors is a guess; checking it would mostly report noise.
  if (syntax.length > 0) throw new GraphFileError(file, syntax);

  const catalog = options.tools ?? defaultToolRegistry();
  const guardrails = options.guardrails ?? defaultGuardrailRegistry();
  const ctx = new ReadContext(
    source,
    createReadState(options.env ?? process.env, {
      tools: catalog,
      guardrails,
      ...(options.onMissingKey === undefined ? {} : { onMissingKey: options.onMissingKey }),
    }),
  );
  const draft = readGraph(ctx, options.entry);
  const models: [string, ModelConfig][] = [];
  for (const model of Object.values(draft.models)) {
    const config: ModelConfig = { name: model.name, spec: model.spec };
    const script = model.scriptFile === undefined ? model.script : await loadScriptFile(model.scriptFile, options.readTextFile ?? readTextFileFromDisk);
    if (script !== undefined) config.script = script;
    if (model.options !== undefined) config.options = model.options;
    if (model.contextWindow !== undefined) config.contextWindow = model.contextWindow;
    models.push([model.name, config]);
  }
  const moduleTools = await loadGraphToolModules(ctx, draft.agents, catalog);
  const moduleGuardrails = await loadGraphGuardrailModules(ctx);
  for (const name of catalog.names()) ctx.define('tool', name);
  checkReferences(ctx.state);
  checkDelegationCycles(ctx.state, draft.agents);

  const problems = ctx.state.problems;
  if (problems.length > 0 || draft.version === undefined || draft.entry === undefined) {
    throw new GraphFileError(
      file,
      sortProblems(file, problems.length > 0 ? problems : [{ file, line: 1, col: 1, message: 'the file defines no agent to run' }]),
    );
  }
  const runnable = new Set([...(ctx.state.definitions.get('agent') ?? []), ...(ctx.state.definitions.get('pipeline') ?? [])]);
  if (!runnable.has(draft.entry)) throw new UnknownAgentError(draft.entry, [...runnable]);
  const graph: GraphConfig = { version: draft.version, file, models: Object.fromEntries(models), agents: draft.agents, entry: draft.entry };
  if (draft.mcpServers !== undefined && Object.keys(draft.mcpServers).length > 0) graph.mcpServers = draft.mcpServers;
  if (draft.pipelines !== undefined && Object.keys(draft.pipelines).length > 0) graph.pipelines = draft.pipelines;
  if (Object.keys(moduleTools).length > 0) graph.moduleTools = moduleTools;
  if (Object.keys(moduleGuardrails).length > 0) graph.moduleGuardrails = moduleGuardrails;
  return graph;
}

/** Orders problems by file (the graph file first, then others in order of first appearance), then line and column. */
function sortProblems(file: string, problems: readonly GraphProblem[]): GraphProblem[] {
  const rank = new Map<string, number>([[file, 0]]);
  for (const problem of problems) if (!rank.has(problem.file)) rank.set(problem.file, rank.size);
  return [...problems].sort((a, b) => (rank.get(a.file) ?? 0) - (rank.get(b.file) ?? 0) || a.line - b.line || a.col - b.col);
}
