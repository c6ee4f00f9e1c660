/**
 * Proves that a graph can be checked without its API keys: with `onMissingKey`, a vendor model
 * with no key, and an unset variable in an API key, a model header or an MCP server's env,
 * headers or bearer token, are warnings with their positions and the graph loads; without it
 * (what a run does) each is a problem of the file. Other problems stay problems either way, and
 * an unknown `--entry` suggests the closest agent. Regression: issue 13, §4 (`graph validate`
 * needed API keys).
 */
import { describe, expect, it } from 'vitest';
import { formatGraphProblem, GraphFileError, parseGraph, UnknownAgentError, type GraphProblem } from '../../src/index.js';

const FILE = [
  'version: 1',
  'models:',
  '  gpt: { model: "openai:gpt-4.1-mini" }',
  '  claude:',
  '    model: anthropic:claude-sonnet-4-5',
  '    apiKey: ${CLAUDE_KEY}',
  '    headers: { x-team: "${TEAM_TOKEN}" }',
  'mcpServers:',
  '  github: { command: gh-mcp, env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } }',
  '  docs: { url: "https://docs.example.com/mcp", bearerToken: "${DOCS_TOKEN}" }',
  'agents:',
  '  lead: { model: gpt, tools: [github.*, docs.*] }',
  '  helper: { model: claude }',
  'entry: lead',
  '',
].join('\n');

const MESSAGES = [
  "3:17: the openai provider needs an API key: set OPENAI_API_KEY, or give apiKey in the model's options (apiKey: ${OPENAI_API_KEY})",
  '6:13: environment variable "CLAUDE_KEY" is not set',
  '7:25: environment variable "TEAM_TOKEN" is not set',
  '9:52: environment variable "GITHUB_TOKEN" is not set',
  '10:62: environment variable "DOCS_TOKEN" is not set',
];

const short = (problem: GraphProblem): string => `${problem.line}:${problem.col}: ${problem.message}`;

describe('missing API keys', () => {
  it('are warnings when the load only checks the file, and the graph loads', async () => {
    const warnings: GraphProblem[] = [];
    const graph = await parseGraph(FILE, { file: 'g.yaml', env: {}, onMissingKey: (problem) => warnings.push(problem) });
    expect(Object.keys(graph.agents)).toEqual(['lead', 'helper']);
    expect(warnings.map(short).sort()).toEqual([...MESSAGES].sort());
    expect(warnings[0]).toMatchObject({ file: 'g.yaml' });
  });

  it('are problems of the file by default, as a run needs them', async () => {
    const error: unknown = await parseGraph(FILE, { file: 'g.yaml', env: {} }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GraphFileError);
    expect((error as GraphFileError).problems.map(short)).toEqual(MESSAGES);
  });

  it('keep other problems as problems', async () => {
    const warnings: GraphProblem[] = [];
    const bad = FILE.replace('helper: { model: claude }', 'helper: { model: claud }');
    const error: unknown = await parseGraph(bad, { file: 'g.yaml', env: {}, onMissingKey: (problem) => warnings.push(problem) }).catch(
      (thrown: unknown) => thrown,
    );
    expect((error as GraphFileError).problems.map(formatGraphProblem)).toEqual([
      'g.yaml:13:20: unknown model "claud" in agents.helper.model (did you mean "claude"?)',
    ]);
    expect(warnings).toHaveLength(5);
  });

  it('are no warnings once the keys are set', async () => {
    const warnings: GraphProblem[] = [];
    const env = { OPENAI_API_KEY: 'sk-1', CLAUDE_KEY: 'k', TEAM_TOKEN: 't', GITHUB_TOKEN: 'g', DOCS_TOKEN: 'd' };
    await parseGraph(FILE, { file: 'g.yaml', env, onMissingKey: (problem) => warnings.push(problem) });
    expect(warnings).toEqual([]);
  });
});

describe('an unknown entry', () => {
  it('suggests the closest agent', async () => {
    const error: unknown = await parseGraph(FILE, { file: 'g.yaml', env: {}, onMissingKey: () => undefined, entry: 'helpr' }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UnknownAgentError);
    expect((error as Error).message).toBe('unknown agent "helpr" (did you mean "helper"?): available agents: lead, helper');
  });
});
