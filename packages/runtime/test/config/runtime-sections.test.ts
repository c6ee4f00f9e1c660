/**
 * The multi-agent sections of a graph file: agents' `delegates`, `description`, `maxDepth` and
 * `supervision`, and `pipelines` (agent, parallel and map steps) with an entry that names an
 * agent or a pipeline. Bad files get every problem with its position: unknown agents, delegation
 * cycles without maxDepth, steps that read later steps, duplicate step ids, unknown entries.
 */
import { describe, expect, it } from 'vitest';
import { formatGraphProblem, GraphFileError } from '../../src/config/graph-file-error.js';
import { loadGraphFile } from '../../src/config/load-graph.js';

const MODELS = ['version: 1', 'models:', '  demo:', '    model: scripted', '    script: [{ text: hi }]'];

function load(lines: string[]) {
  const text = `${lines.join('\n')}\n`;
  return loadGraphFile('g.yaml', { env: {}, readTextFile: async () => text });
}

async function problemsOf(lines: string[]): Promise<string[]> {
  try {
    await load(lines);
  } catch (error) {
    if (error instanceof GraphFileError) return error.problems.map(formatGraphProblem);
    throw error;
  }
  return [];
}

describe('graph files: delegation and pipelines', () => {
  it('load delegates, supervision and a pipeline entry', async () => {
    const graph = await load([
      ...MODELS,
      'agents:',
      '  lead: { model: demo, delegates: [researcher], maxDepth: 3, supervision: { retries: 2, backoffMs: 50 } }',
      '  researcher: { model: demo, description: finds facts }',
      'pipelines:',
      '  brief:',
      '    steps:',
      '      - { id: outline, agent: lead, input: "Outline {{input}}", output: { schema: { type: array }, retries: 2 } }',
      '      - { id: parts, map: "{{steps.outline.output}}", agent: researcher, concurrency: 2 }',
      '      - id: review',
      '        continueOnError: true',
      '        parallel:',
      '          - { id: a, agent: lead, input: "{{steps.parts.output}}" }',
      '          - { id: b, agent: researcher }',
      'entry: brief',
    ]);
    expect(graph.entry).toBe('brief');
    expect(graph.agents['lead']).toMatchObject({ delegates: ['researcher'], maxDepth: 3, supervision: { retries: 2, backoffMs: 50 } });
    expect(graph.agents['researcher']?.description).toBe('finds facts');
    expect(graph.pipelines?.['brief']?.steps).toEqual([
      { kind: 'agent', id: 'outline', agent: 'lead', input: 'Outline {{input}}', output: { schema: { type: 'array' }, retries: 2 } },
      { kind: 'map', id: 'parts', over: '{{steps.outline.output}}', agent: 'researcher', input: '{{item}}', concurrency: 2 },
      {
        kind: 'parallel',
        id: 'review',
        continueOnError: true,
        steps: [
          { kind: 'agent', id: 'a', agent: 'lead', input: '{{steps.parts.output}}' },
          { kind: 'agent', id: 'b', agent: 'researcher', input: '{{input}}' },
        ],
      },
    ]);
  });

  it('report unknown delegates and delegation cycles without maxDepth', async () => {
    expect(
      await problemsOf([
        ...MODELS,
        'agents:',
        '  lead: { model: demo, delegates: [critic, reseacher] }',
        '  critic: { model: demo, delegates: [lead] }',
        '  researcher: { model: demo }',
        'entry: lead',
      ]),
    ).toEqual([
      'g.yaml:7:44: unknown agent "reseacher" in agents.lead.delegates[1] (did you mean "researcher"?)',
      'g.yaml:8:38: delegation cycle lead → critic → lead has no maxDepth (set maxDepth on "lead" or "critic" to bound the recursion)',
    ]);
    expect(await problemsOf([...MODELS, 'agents:', '  echo: { model: demo, delegates: [echo], maxDepth: 2 }'])).toEqual([]);
  });

  it('report steps that read later steps, duplicate ids, unknown agents and entries', async () => {
    expect(
      await problemsOf([
        ...MODELS,
        'agents:',
        '  writer: { model: demo }',
        'pipelines:',
        '  brief:',
        '    steps:',
        '      - { id: draft, agent: writer, input: "{{steps.edit.output}}" }',
        '      - { id: draft, agent: wrier }',
        'entry: breif',
      ]),
    ).toEqual([
      'g.yaml:11:9: step "draft" reads steps.edit, which is not an earlier step (no step comes before it)',
      'g.yaml:12:9: duplicate step id "draft" in pipelines.brief.steps',
      'g.yaml:12:29: unknown agent "wrier" in pipelines.brief.steps[1].agent (did you mean "writer"?)',
      'g.yaml:13:8: unknown agent or pipeline "breif" in entry (did you mean "brief"?)',
    ]);
  });
});
