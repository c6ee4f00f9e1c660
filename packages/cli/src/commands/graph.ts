import { resolve } from 'node:path';
import { graphToMermaid } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { loadGraphOrSay } from './load-graph.js';

/**
 * `troupe graph validate <file>`: every problem of the file with its position (exit 2), or a
 * one-line confirmation (exit 0). `troupe graph show <file>`: the graph as a Mermaid flowchart.
 */
export async function graphCommand(options: { file: string; action: 'validate' | 'show' }, io: CliIo): Promise<ExitCode> {
  const graph = await loadGraphOrSay(resolve(options.file), io);
  if (graph === undefined) return ExitCode.BadInput;
  if (options.action === 'show') {
    io.stdout(graphToMermaid(graph));
    return ExitCode.Ok;
  }
  const pipelines = Object.keys(graph.pipelines ?? {}).length;
  io.stdout(`${options.file} is valid: ${Object.keys(graph.agents).length} agents, ${pipelines} pipelines, entry ${graph.entry}\n`);
  return ExitCode.Ok;
}
