import { formatGraphProblem, GraphFileError, graphToMermaid, loadGraphFile, TextFileError, type GraphConfig, type GraphProblem } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';

/** What `troupe graph validate|show` was asked to do. */
export interface GraphCommandOptions {
  /** The graph files, checked one after the other. */
  files: readonly string[];
  action: 'validate' | 'show';
  /** `validate` only: one JSON object per file on stdout instead of text. */
  json?: boolean;
}

/** What checking one file found. */
interface Checked {
  file: string;
  graph?: GraphConfig;
  problems: readonly GraphProblem[];
  /** What only a run needs and is missing here (API keys): said, but the file is valid. */
  warnings: readonly GraphProblem[];
  /** The file is not a text file, or too large: said in one line instead of its problems. */
  refused?: string;
}

/**
 * `troupe graph validate <files…>`: each file's problems with their positions and a one-line
 * confirmation for each valid file; exit 2 when any file has a problem. API keys are not needed:
 * a missing one is a warning (`file:line:col: warning: …`), for a run needs it, not the file.
 * With `json`, one object per file on stdout: `{ file, valid, entry, agents, pipelines, problems,
 * warnings }`, problems and warnings as `{ file, line, col, message, hint? }`.
 *
 * `troupe graph show <files…>`: each graph as a Mermaid flowchart (several files: each chart
 * after a `%% file` line), problems and warnings as for validate.
 */
export async function graphCommand(options: GraphCommandOptions, io: CliIo): Promise<ExitCode> {
  let code: ExitCode = ExitCode.Ok;
  for (const [index, file] of options.files.entries()) {
    const checked = await check(file, io);
    if (checked.graph === undefined) code = ExitCode.BadInput;
    if (options.action === 'validate' && options.json === true) {
      io.stdout(`${JSON.stringify(jsonOf(checked))}\n`);
      continue;
    }
    say(checked, options.action, io);
    if (options.action === 'show' && checked.graph !== undefined) {
      const chart = graphToMermaid(checked.graph);
      io.stdout(options.files.length === 1 ? chart : `${index === 0 ? '' : '\n'}%% ${file}\n${chart}`);
    }
  }
  return code;
}

async function check(file: string, io: CliIo): Promise<Checked> {
  const warnings: GraphProblem[] = [];
  try {
    const graph = await loadGraphFile(file, { env: io.env, onMissingKey: (warning) => warnings.push(warning) });
    return { file, graph, problems: [], warnings };
  } catch (error) {
    if (!(error instanceof GraphFileError)) throw error;
    return { file, problems: error.problems, warnings, ...(error.cause instanceof TextFileError ? { refused: error.cause.message } : {}) };
  }
}

/** The text form: problems and warnings on stderr, the confirmation of a valid file on stdout (validate). */
function say(checked: Checked, action: GraphCommandOptions['action'], io: CliIo): void {
  if (checked.refused !== undefined) {
    io.stderr(`troupe graph ${action}: ${checked.refused}\n`);
    return;
  }
  for (const problem of checked.problems) io.stderr(`${formatGraphProblem(problem)}\n`);
  for (const warning of checked.warnings) io.stderr(`${formatGraphProblem({ ...warning, message: `warning: ${warning.message}` })}\n`);
  const { graph } = checked;
  if (action === 'validate' && graph !== undefined) {
    const agents = Object.keys(graph.agents).length;
    const pipelines = Object.keys(graph.pipelines ?? {}).length;
    const warned = checked.warnings.length === 0 ? '' : ` (${checked.warnings.length === 1 ? '1 warning' : `${checked.warnings.length} warnings`})`;
    io.stdout(`${checked.file} is valid${warned}: ${count(agents, 'agent')}, ${count(pipelines, 'pipeline')}, entry ${graph.entry}\n`);
  }
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

function jsonOf({ file, graph, problems, warnings }: Checked): Record<string, unknown> {
  return {
    file,
    valid: graph !== undefined,
    ...(graph === undefined ? {} : { entry: graph.entry, agents: Object.keys(graph.agents), pipelines: Object.keys(graph.pipelines ?? {}) }),
    problems,
    warnings,
  };
}
