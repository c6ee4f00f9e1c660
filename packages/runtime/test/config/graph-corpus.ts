/**
 * Graph files both the loader and the published JSON Schema must judge alike (see
 * schema-loader-agreement.test.ts): the valid graphs the config tests load (copied here as
 * written there, with the env, entry and directory they load with), and bad graphs, each with one
 * mistake of a kind JSON Schema can see: a wrong type, an unknown key, a value outside its enum
 * or range, a missing required key, an empty section, a bad name.
 */
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

/** A graph file's text and how the config tests load it. */
export interface CorpusGraph {
  readonly name: string;
  readonly text: string;
  /** Where it is "written" (tool and guardrail modules resolve next to it). Default `g.yaml`. */
  readonly file?: string;
  readonly env?: Record<string, string>;
  /** The `entry` option, for a file with several agents and no `entry`. */
  readonly entry?: string;
}

const fixture = (path: string): string => fileURLToPath(new URL(`./fixtures/${path}`, import.meta.url));
const lines = (...text: string[]): string => `${text.join('\n')}\n`;

const M = 'models:\n  m: { model: scripted, script: [{ text: hi }] }';
const withAgent = (...agent: string[]): string => lines('version: 1', M, 'agents:', '  a:', '    model: m', ...agent.map((line) => `    ${line}`));

/** Valid graphs of the config tests, by the test that loads them. */
export const VALID_GRAPHS: readonly CorpusGraph[] = [
  // load-graph.test.ts
  { name: 'the only agent as entry', text: lines('version: 1', M, 'agents:', '  solo: { model: m }') },
  {
    name: 'aliases',
    text: lines('version: 1', M, 'agents:', '  a: { model: m, limits: &limits { maxTurns: 3 } }', '  b: { model: m, limits: *limits }', 'entry: a'),
  },
  { name: 'two agents and the entry option', text: lines('version: 1', M, 'agents:', '  a: { model: m }', '  b: { model: m }'), entry: 'b' },
  // agent-run-schema.test.ts
  {
    name: 'run settings',
    file: fixture('guardrails/graph.yaml'),
    text: lines(
      'version: 1',
      'models:',
      '  m:',
      '    model: scripted',
      '    script: [{ text: hi }]',
      '    thinking: xhigh',
      '    temperature: 0.2',
      '    topP: 0.9',
      'agents:',
      '  a:',
      '    model: m',
      '    retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 150 }',
      '    toolExecution: { mode: batched, size: 3 }',
      '    steeringMode: all',
      '    followUpMode: all',
      '    outputSchema: { type: object, required: [answer] }',
      '    outputRetries: 3',
      '    guardrails: [{ maxInputLength: 100 }, { denyPatterns: { patterns: ["secret"], ignoreCase: false } }, { denyPatterns: ["rm -rf"] }, { module: ./no-secrets.ts }]',
    ),
  },
  { name: 'sequential tool execution', text: withAgent('toolExecution: sequential') },
  // model-options-schema.test.ts
  {
    name: 'an anthropic model with options',
    env: { MY_KEY: 'sk-ant-from-env' },
    text: lines(
      'version: 1',
      'models:',
      '  m:',
      '    model: anthropic:claude-sonnet-4-5',
      '    apiKey: ${MY_KEY}',
      '    baseUrl: http://127.0.0.1:9999',
      '    headers: { x-team: blue }',
      '    thinking: medium',
      '    maxTokens: 2048',
      '    cache: { message: last, ttl: 1h }',
      'agents:',
      '  a: { model: m }',
    ),
  },
  { name: 'an ollama model', text: lines('version: 1', 'models:', '  m: { model: "ollama:qwen3:8b" }', 'agents:', '  a: { model: m }') },
  {
    name: 'a google model with its key in the env',
    env: { GOOGLE_API_KEY: 'AIza-x' },
    text: lines('version: 1', 'models:', '  m:', '    model: google:gemini-2.5-flash', 'agents:', '  a: { model: m }'),
  },
  // model-override.test.ts
  {
    name: 'a local model',
    text: lines(
      'version: 1',
      'models:',
      '  local:',
      '    model: ollama:qwen3',
      '    baseUrl: http://127.0.0.1:9/v1',
      '    thinking: low',
      'agents:',
      '  a: { model: local }',
    ),
  },
  // tools-and-mcp-config.test.ts
  {
    name: 'MCP servers, selectors, tool settings and a workspace',
    file: '/project/graphs/g.yaml',
    env: { TOKEN: 't0k' },
    text: lines(
      'version: 1',
      'models:',
      '  demo: { model: scripted, script: [{ text: hi }] }',
      'mcpServers:',
      '  github:',
      '    command: npx',
      '    args: [-y, "@modelcontextprotocol/server-github"]',
      '    env: { GITHUB_TOKEN: "${TOKEN}" }',
      '    cwd: ../servers',
      '  remote:',
      '    type: http',
      '    url: https://mcp.example.com/mcp',
      '    headers: { X-Team: troupe }',
      '    bearerToken: "${TOKEN}"',
      '    toolPrefix: r_',
      '    timeoutMs: 5000',
      '    trustAnnotations: true',
      'agents:',
      '  coder:',
      '    model: demo',
      '    workspace: ../src',
      '    tools:',
      '      - read_file',
      '      - bash: { timeoutMs: 5000, deny: ["git push"], workspace: /tmp/w }',
      '      - github.*',
      '      - remote.search_docs',
      '    permissions: { mode: smart, tools: { github.create_issue: ask, remote.*: allow, github__list_issues: allow } }',
    ),
  },
  // compaction-config.test.ts
  {
    name: 'compaction and context windows',
    text: lines(
      'version: 1',
      'models:',
      '  main: { model: scripted, contextWindow: 8000, script: [{ text: hi }] }',
      '  small: { model: scripted, script: [{ text: summary }] }',
      '  gpt: { model: "openai:gpt-4.1-mini", apiKey: k }',
      'agents:',
      '  worker: { model: main, compaction: { threshold: 0.7, strategies: [summary, drop-oldest], model: small } }',
    ),
  },
  { name: 'a tool result budget', text: withAgent('compaction: { toolResultBudget: 500 }') },
  // typed-variables.test.ts
  {
    name: 'variables in flow maps',
    env: { COST: '0.25', WALL: '' },
    text: withAgent('limits: { maxTurns: ${MAX_TURNS:-5}, maxCost: ${COST}, maxWallTimeMs: ${WALL:-60000} }'),
  },
  { name: 'fallbacks with flow syntax', text: withAgent('system: ${ROLE:-a: helper, [terse] # really}', 'tools: [${FIRST:-clock}, echo]') },
  {
    name: 'a boolean from a variable',
    env: { LENIENT: 'FALSE' },
    text: lines(
      'version: 1',
      'models: { m: { model: scripted, script: [{ text: hi }] } }',
      'agents: { a: { model: m } }',
      'pipelines:',
      '  p:',
      '    steps:',
      '      - { id: one, agent: a, continueOnError: ${LENIENT:-true} }',
      'entry: p',
    ),
  },
  // runtime-sections.test.ts
  {
    name: 'delegates, supervision and a pipeline',
    text: lines(
      'version: 1',
      'models:',
      '  demo:',
      '    model: scripted',
      '    script: [{ text: hi }]',
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
    ),
  },
  { name: 'a bounded delegation cycle', text: lines('version: 1', M, 'agents:', '  echo: { model: m, delegates: [echo], maxDepth: 2 }') },
  // agent-run-settings.test.ts
  { name: 'maxTurns unlimited', text: withAgent('limits: { maxTurns: unlimited }') },
  { name: 'maxTurns .inf', text: withAgent('limits: { maxTurns: .inf }') },
  { name: 'task completion and a step delay', text: withAgent('tools: [echo]', 'completion: task', 'stepDelayMs: 1000') },
  {
    name: 'a long script of tool calls',
    text: lines(
      'version: 1',
      'models:',
      `  m: { model: scripted, script: [${Array.from({ length: 3 }, () => '{ toolCalls: [{ name: echo, arguments: { text: x } }] }').join(', ')}] }`,
      'agents:',
      '  a: { model: m, tools: [echo] }',
    ),
  },
  // agent-placement.test.ts
  {
    name: 'placements and concurrencies',
    text: lines(
      'version: 1',
      M,
      'agents:',
      '  lead: { model: m, delegates: [coder, reviewer] }',
      '  coder: { model: m, placement: remote, concurrency: 2 }',
      '  reviewer: { model: m, placement: local, concurrency: 1 }',
      'entry: lead',
    ),
  },
  // missing-keys.test.ts
  {
    name: 'keys from the environment',
    env: { OPENAI_API_KEY: 'sk-1', CLAUDE_KEY: 'k', TEAM_TOKEN: 't', GITHUB_TOKEN: 'g', DOCS_TOKEN: 'd' },
    text: lines(
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
    ),
  },
  // Not from a test: a `${NAME}` wherever a number, a boolean or a word belongs (the loader converts it).
  {
    name: 'variables for numbers, booleans and words',
    env: { PLACE: 'remote' },
    text: lines(
      'version: 1',
      'models:',
      '  m: { model: scripted, contextWindow: "${WINDOW:-8000}", thinking: "${THINK:-low}", script: [{ text: hi, delayMs: "${DELAY:-0}" }] }',
      'agents:',
      '  a: { model: m, placement: "${PLACE}", stepDelayMs: "${STEP:-0}", compaction: { threshold: "${T:-0.5}", strategies: ["${S:-summary}"] }, toolExecution: "${EXEC:-parallel}" }',
    ),
  },
  // tool-modules.test.ts
  ...['[clock, { module: ./weather.ts }]', '[{ module: ./common.cts }]'].map(
    (tools): CorpusGraph => ({ name: `tool modules ${tools}`, file: fixture('tool-modules/graph.yaml'), text: withAgent(`tools: ${tools}`) }),
  ),
  {
    name: 'a module tool named in permissions',
    file: fixture('tool-modules/graph.yaml'),
    text: withAgent('tools: [{ module: ./units.mjs }]', 'permissions: { mode: ask, tools: { to_celsius: allow } }'),
  },
  {
    name: 'a module listed by two agents',
    file: fixture('tool-modules/graph.yaml'),
    text: lines(withAgent('tools: [{ module: ./counted.ts }]').trimEnd(), '  b: { model: m, tools: [{ module: ./counted.ts }] }', 'entry: a'),
  },
];

/** A small valid graph as data, the base of the bad ones. */
const BASE = { version: 1, models: { m: { model: 'scripted', script: [{ text: 'hi' }] } }, agents: { a: { model: 'm' } } };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** {@link BASE} with the value at `path` replaced (or removed, for `undefined`), as YAML. */
function bad(name: string, path: (string | number)[], value: Json | undefined): CorpusGraph {
  const graph = structuredClone(BASE) as unknown as { [key: string]: Json };
  let at: Json = graph;
  for (const key of path.slice(0, -1)) {
    const container = at as { [key: string]: Json };
    const next = container[key as string];
    if (next === undefined) container[key as string] = {};
    at = container[key as string] as Json;
  }
  const last = path[path.length - 1] as string;
  if (value === undefined) delete (at as { [key: string]: Json })[last];
  else (at as { [key: string]: Json })[last] = value;
  return { name, text: stringify(graph) };
}

const model = ['models', 'm'];
const step0 = ['models', 'm', 'script', 0];
const PIPELINE = { steps: [{ id: 's', agent: 'a' }] };

/** Bad graphs, one mistake each, by the kind of mistake. */
export const INVALID_GRAPHS: readonly CorpusGraph[] = [
  // Wrong types.
  bad('a version that is a string', ['version'], '1'),
  bad('a system prompt that is a number', ['agents', 'a', 'system'], 42),
  bad('tools that are a string', ['agents', 'a', 'tools'], 'clock'),
  bad('a maxTurns that is a word', ['agents', 'a', 'limits'], { maxTurns: 'ten' }),
  bad('a maxTokens that is not an integer', ['agents', 'a', 'limits'], { maxTokens: 1.5 }),
  bad('a temperature that is a word', [...model, 'temperature'], 'hot'),
  bad('a topP of 0', [...model, 'topP'], 0),
  bad('a script text that is a list', [...step0, 'text'], ['not', 'text']),
  bad('a negative usage count', [...step0, 'usage'], { input: -1 }),
  bad('tool call arguments that are a list', [...step0, 'toolCalls'], [{ name: 'x', arguments: [1] }]),
  bad('MCP args that are a string', ['mcpServers'], { s: { command: 'x', args: 'a' } }),
  bad('a compaction threshold above 1', ['agents', 'a', 'compaction'], { threshold: 1.5 }),
  bad('a concurrency of 0', ['agents', 'a', 'concurrency'], 0),
  bad('a context window that is not an integer', [...model, 'contextWindow'], 0.5),
  bad('cache that is a string', [...model, 'cache'], 'yes'),
  bad('cache that is a variable (it takes none)', [...model, 'cache'], '${CACHE:-true}'),
  bad('negative supervision retries', ['agents', 'a', 'supervision'], { retries: -1 }),
  bad('a maxDelayMs of 0', ['agents', 'a', 'retry'], { maxDelayMs: 0 }),
  bad('an output schema that is a string', ['agents', 'a', 'outputSchema'], 'object'),
  bad('a maxInputLength of 0', ['agents', 'a', 'guardrails'], [{ maxInputLength: 0 }]),
  bad('an empty denyPatterns', ['agents', 'a', 'guardrails'], [{ denyPatterns: [] }]),
  bad('a tool setting of the wrong type', ['agents', 'a', 'tools'], [{ bash: { timeoutMs: 'soon' } }]),
  bad("a module tool's settings that are not a mapping", ['agents', 'a', 'tools'], [{ weather: 'hot' }]),
  bad('a stepDelayMs below 0', ['agents', 'a', 'stepDelayMs'], -1),
  bad('delegates that are a string', ['agents', 'a', 'delegates'], 'a'),
  bad('a step input that is a number', ['pipelines'], { p: { steps: [{ id: 's', agent: 'a', input: 3 }] } }),
  bad('an agent that is a list', ['agents', 'a'], ['model']),
  // Unknown keys.
  bad('a misspelt section', ['modles'], {}),
  bad('a misspelt agent key', ['agents', 'a', 'sytem'], 'x'),
  bad('a misspelt model key', [...model, 'tempreature'], 0.5),
  bad('a misspelt script step key', [...step0, 'texts'], 'hi'),
  bad('an unknown usage key', [...step0, 'usage'], { tokens: 3 }),
  bad('an unknown tool call key', [...step0, 'toolCalls'], [{ name: 'x', args: {} }]),
  bad('an unknown error key', [...model, 'script'], [{ error: { kind: 'api', code: 3 } }]),
  bad('a misspelt MCP server key', ['mcpServers'], { s: { commnd: 'x' } }),
  bad('a misspelt limit', ['agents', 'a', 'limits'], { maxTurn: 3 }),
  bad('a misspelt permissions key', ['agents', 'a', 'permissions'], { mode: 'ask', tool: {} }),
  bad('an unknown compaction key', ['agents', 'a', 'compaction'], { keep: 3 }),
  bad('an unknown retry key', ['agents', 'a', 'retry'], { tries: 2 }),
  bad('a misspelt step key', ['pipelines'], { p: { steps: [{ id: 's', agnet: 'a' }] } }),
  bad('an unknown output key', ['pipelines'], { p: { steps: [{ id: 's', agent: 'a', output: { schema: {}, tries: 1 } }] } }),
  bad('a misspelt tool setting', ['agents', 'a', 'tools'], [{ bash: { timout: 5 } }]),
  bad('a setting for a tool that takes none', ['agents', 'a', 'tools'], [{ clock: { zone: 'UTC' } }]),
  bad('a misspelt guardrail', ['agents', 'a', 'guardrails'], [{ maxInputLenght: 4 }]),
  bad('an unknown pipeline key', ['pipelines'], { p: { ...PIPELINE, title: 'x' } }),
  bad('an unknown cache key', [...model, 'cache'], { prompt: true }),
  // Values outside their enum.
  bad('an unknown placement', ['agents', 'a', 'placement'], 'worker'),
  bad('an unknown thinking level', [...model, 'thinking'], 'extra'),
  bad('an unknown permission mode', ['agents', 'a', 'permissions'], { mode: 'maybe' }),
  bad('an unknown verdict', ['agents', 'a', 'permissions'], { mode: 'ask', tools: { echo: 'smart' } }),
  bad('an unknown stop reason', [...step0, 'stopReason'], 'done'),
  bad('an unknown error kind', [...model, 'script'], [{ error: { kind: 'rate_limit' } }]),
  bad('an unknown steering mode', ['agents', 'a', 'steeringMode'], 'some'),
  bad('an unknown tool execution', ['agents', 'a', 'toolExecution'], 'serial'),
  bad('an unknown batched mode', ['agents', 'a', 'toolExecution'], { mode: 'burst' }),
  bad('an unknown compaction strategy', ['agents', 'a', 'compaction'], { strategies: ['sumary'] }),
  bad('a repeated compaction strategy', ['agents', 'a', 'compaction'], { strategies: ['summary', 'summary'] }),
  bad('an unknown MCP transport', ['mcpServers'], { s: { type: 'ws', url: 'http://h/mcp' } }),
  bad('an unknown cache ttl', [...model, 'cache'], { ttl: '2h' }),
  bad('an unknown completion', ['agents', 'a', 'completion'], 'whenever'),
  bad('an unknown search engine', ['agents', 'a', 'tools'], [{ search: { engine: 'grep' } }]),
  bad('an unsupported version', ['version'], 2),
  // Missing required keys.
  bad('no version', ['version'], undefined),
  bad('no models', ['models'], undefined),
  bad('no agents', ['agents'], undefined),
  bad('an agent without a model', ['agents', 'a', 'model'], undefined),
  bad('a model without a model', [...model, 'model'], undefined),
  bad('a tool call without a name', [...step0, 'toolCalls'], [{ id: 'c1' }]),
  bad('an error without a kind', [...model, 'script'], [{ error: { message: 'x' } }]),
  bad('permissions without a mode', ['agents', 'a', 'permissions'], { tools: {} }),
  bad('an output without a schema', ['pipelines'], { p: { steps: [{ id: 's', agent: 'a', output: { retries: 1 } }] } }),
  bad('a step without an id', ['pipelines'], { p: { steps: [{ agent: 'a' }] } }),
  bad('a step without an agent', ['pipelines'], { p: { steps: [{ id: 's' }] } }),
  bad('a map step without an agent', ['pipelines'], { p: { steps: [{ id: 's', map: '[]' }] } }),
  bad('a batched tool execution without a mode', ['agents', 'a', 'toolExecution'], { size: 2 }),
  bad('a pipeline without steps', ['pipelines'], { p: { description: 'x' } }),
  // Empty sections and lists.
  bad('empty models', ['models'], {}),
  bad('empty agents', ['agents'], {}),
  bad('an empty script', [...model, 'script'], []),
  bad('an empty parallel step', ['pipelines'], { p: { steps: [{ id: 's', parallel: [] }] } }),
  bad('empty steps', ['pipelines'], { p: { steps: [] } }),
  // Bad names.
  bad('an agent name with a space', ['agents'], { 'my agent': { model: 'm' } }),
  bad('a pipeline name with a space', ['pipelines'], { 'my pipeline': PIPELINE }),
  bad('an MCP server name with a dot', ['mcpServers'], { 'dotted.name': { command: 'x' } }),
  bad('a step id with a space', ['pipelines'], { p: { steps: [{ id: 'a step', agent: 'a' }] } }),
  bad('a tool prefix with a dot', ['mcpServers'], { s: { command: 'x', toolPrefix: 'a.b' } }),
  bad('settings on an MCP selector', ['agents', 'a', 'tools'], [{ 'github.*': { timeoutMs: 5 } }]),
];
