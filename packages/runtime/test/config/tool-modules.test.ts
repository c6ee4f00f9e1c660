/**
 * Proves custom tools load from a graph file's tool modules (`- module: ./tools/x.ts`, relative
 * to the graph file): TypeScript (ESM and CommonJS) and JavaScript, each module evaluated once
 * per process; a default export (one tool or a list) and named tools, other exports ignored; their names join the agent's tools and may
 * be named in `permissions`; an agent built from the graph calls them on the scripted model. A
 * bad module (missing, not code, failing to load, not compiling, exporting no tool, a function
 * or a wrong shape, clashing names) is a problem at the `module:` value's file:line:col.
 */
import { fileURLToPath } from 'node:url';
import type { AgentPath, RunId, ToolContext, ToolResultMessage } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createAgentFromConfig } from '../../src/agent-from-config.js';
import { formatGraphProblem, GraphFileError } from '../../src/config/graph-file-error.js';
import { parseGraph } from '../../src/config/load-graph.js';

/** The graph files are "written" next to the tool modules, so `./x.ts` resolves there. */
const file = fileURLToPath(new URL('./fixtures/tool-modules/graph.yaml', import.meta.url));

function graphWith(tools: string, script = '[{ text: hi }]', more: string[] = []): string {
  return [
    'version: 1',
    'models:',
    '  m:',
    '    model: scripted',
    `    script: ${script}`,
    'agents:',
    '  a:',
    '    model: m',
    `    tools: ${tools}`,
    ...more,
    '',
  ].join('\n');
}

function toolContext(): ToolContext {
  return {
    toolCallId: 'call_1',
    runId: 'run_1' as RunId,
    agentPath: 'a' as AgentPath,
    sessionId: 'ses_1',
    signal: new AbortController().signal,
    update: () => undefined,
    progress: () => undefined,
  };
}

async function problemsOf(text: string): Promise<string[]> {
  const error = await parseGraph(text, { file, env: {} }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GraphFileError);
  return (error as GraphFileError).problems.map((problem) => formatGraphProblem({ ...problem, file: 'graph.yaml' }));
}

describe('tool modules', () => {
  it('loads a TypeScript default export made with defineTool, and an agent of the graph calls it', async () => {
    const script = '[{ toolCalls: [{ name: weather, arguments: { city: Oslo } }] }, { text: "{{lastToolResult}}" }]';
    const graph = await parseGraph(graphWith('[clock, { module: ./weather.ts }]', script), { file, env: {} });
    expect(graph.agents['a']).toMatchObject({
      tools: ['clock', 'weather'],
      toolModules: [fileURLToPath(new URL('./fixtures/tool-modules/weather.ts', import.meta.url))],
    });
    expect(graph.moduleTools?.['weather']).toMatchObject({ name: 'weather', readOnly: true, parameters: { type: 'object', required: ['city'] } });

    const result = await createAgentFromConfig(graph, 'a').prompt('How cold is Oslo?');
    expect(result.text).toBe('Oslo: 4 °C');
  });

  it('takes named tools and a default list from JavaScript, ignores other exports, and lets permissions name them', async () => {
    const script = '[{ toolCalls: [{ name: to_celsius, arguments: { fahrenheit: 212 } }] }, { text: "{{lastToolResult}}" }]';
    const graph = await parseGraph(graphWith('[{ module: ./units.mjs }]', script, ['    permissions: { mode: ask, tools: { to_celsius: allow } }']), {
      file,
      env: {},
    });
    expect(graph.agents['a']?.tools).toEqual(['to_fahrenheit', 'to_celsius']);
    // to_celsius is allowed without asking: the run does not wait for a user.
    const result = await createAgentFromConfig(graph, 'a').prompt('212 °F?');
    expect(result.text).toBe('100 °C');
  });

  it('loads TypeScript compiled as CommonJS, with its own TypeScript imports', async () => {
    const graph = await parseGraph(graphWith('[{ module: ./common.cts }]'), { file, env: {} });
    expect(await graph.moduleTools?.['shout']?.execute({}, toolContext())).toEqual({ content: 'HELLO' });
  });

  it('evaluates a module once per process, however many graphs and agents list it', async () => {
    const twice = graphWith('[{ module: ./counted.ts }]', '[{ text: hi }]', ['  b: { model: m, tools: [{ module: ./counted.ts }] }', 'entry: a']);
    await parseGraph(twice, { file, env: {} });
    const graph = await parseGraph(twice, { file, env: {} });
    expect(graph.agents['b']?.tools).toEqual(['counted']);
    expect(await graph.moduleTools?.['counted']?.execute({}, toolContext())).toEqual({ content: '1' });
  });

  it('validates arguments with the zod schema before the tool runs', async () => {
    const script = '[{ toolCalls: [{ name: weather, arguments: { town: Oslo } }] }, { text: done }]';
    const graph = await parseGraph(graphWith('[{ module: ./weather.ts }]', script), { file, env: {} });
    const result = await createAgentFromConfig(graph, 'a').prompt('Weather?');
    const toolResult = result.messages.find((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(toolResult?.isError).toBe(true);
    expect(JSON.stringify(toolResult?.content)).toContain('city');
  });

  it.each([
    [
      'a missing file',
      '[{ module: ./nope.ts }]',
      /^graph\.yaml:9:23: tool module \.\/nope\.ts: file not found \(looked for \/.*\/tool-modules\/nope\.ts; the path is relative to the graph file\)$/,
    ],
    [
      'a file that is not code',
      '[{ module: ./notes.json }]',
      /^graph\.yaml:9:23: tool module \.\/notes\.json: is not a TypeScript or JavaScript file \(name a \.ts, \.mts, \.cts, \.js, \.mjs or \.cjs file\)$/,
    ],
    [
      'a module that throws while loading',
      '[{ module: ./throws.ts }]',
      /^graph\.yaml:9:23: tool module \.\/throws\.ts: failed to load: WEATHER_API_KEY is not set \(at line \d+, column \d+\)$/,
    ],
    [
      'a module that does not compile',
      '[{ module: ./syntax.mts }]',
      /^graph\.yaml:9:23: tool module \.\/syntax\.mts: failed to load: Transform failed with 1 error:; .*syntax\.m?ts:2:13: ERROR: Expected identifier but found "="$/,
    ],
    [
      'a module that exports no tool',
      '[{ module: ./no-tool.ts }]',
      /^graph\.yaml:9:23: tool module \.\/no-tool\.ts: exports no tool \(export default defineTool\(\{ … \}\) with defineTool from @troupe\/tools, or export tools by name\)$/,
    ],
    [
      'a default export without execute',
      '[{ module: ./no-execute.ts }]',
      /^graph\.yaml:9:23: tool module \.\/no-execute\.ts: the default export is not a valid tool: weather has no "execute" function$/,
    ],
    [
      'a named tool with bad parameters',
      '[{ module: ./bad-parameters.js }]',
      /^graph\.yaml:9:23: tool module \.\/bad-parameters\.js: export "lookup" is not a valid tool: the "parameters" of lookup are not a JSON Schema with type "object"$/,
    ],
    [
      'a named tool whose idempotent is not a boolean',
      '[{ module: ./bad-flag.js }]',
      /^graph\.yaml:9:23: tool module \.\/bad-flag\.js: export "stamp" is not a valid tool: the "idempotent" of stamp is not true or false$/,
    ],
    [
      'a factory instead of a tool',
      '[{ module: ./factory.js }]',
      /^graph\.yaml:9:23: tool module \.\/factory\.js: the default export is not a valid tool: it is a function \(export the tool itself, not a function that makes one\)$/,
    ],
    [
      'a tool named like a built-in tool',
      '[{ module: ./clock.ts }]',
      /^graph\.yaml:9:23: tool "clock" of \.\/clock\.ts has the name of a built-in tool \(rename it\)$/,
    ],
  ])('reports %s at the module path', async (_name, tools, expected) => {
    const problems = await problemsOf(graphWith(tools));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(expected);
  });

  it('reports two modules with a tool of the same name and a module listed twice, with every other problem', async () => {
    const problems = await problemsOf(graphWith('[{ module: ./weather.ts }, { module: ./weather-too.ts }, { module: "./weather.ts" }, weathr]'));
    expect(problems).toEqual([
      'graph.yaml:9:49: tool "weather" of ./weather-too.ts has the name of a tool of ./weather.ts (rename one of them)',
      'graph.yaml:9:79: duplicate tool module ./weather.ts in agents.a.tools[2].module',
      'graph.yaml:9:97: unknown tool "weathr" in agents.a.tools[3] (did you mean "weather"?)',
    ]);
  });
});
