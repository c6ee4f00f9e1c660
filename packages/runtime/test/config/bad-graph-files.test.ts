/**
 * Proves the loader reports every problem of a bad graph file at once, each as
 * `file:line:col: message (hint)` with the exact position: YAML syntax, wrong types, unknown keys
 * with "did you mean" hints, missing required keys, unknown model/tool/agent references, bad
 * agent placements and concurrencies, bad versions, unknown providers, vendor models without an
 * API key, scripted models without a script, unreadable or invalid script files (reported in the
 * script file's own positions) and unset environment variables.
 */
import { describe, expect, it } from 'vitest';
import { formatGraphProblem, GraphFileError } from '../../src/config/graph-file-error.js';
import { loadGraphFile } from '../../src/config/load-graph.js';

interface BadFile {
  name: string;
  /** Lines of `bad.yaml`. */
  yaml: string[];
  /** Other files, by path. */
  files?: Record<string, string>;
  env?: Record<string, string>;
  problems: string[];
}

const MODELS = ['models:', '  demo:', '    model: scripted', '    script: [{ text: hi }]'];

const cases: BadFile[] = [
  {
    name: 'an unclosed flow sequence',
    yaml: ['version: 1', 'agents:', '  a: { model: m, tools: [clock }', ''],
    problems: [
      'bad.yaml:3:32: Flow sequence in block collection must be sufficiently indented and end with a ]',
      'bad.yaml:3:33: Flow map in block collection must be sufficiently indented and end with a }',
    ],
  },
  {
    name: 'a duplicate key',
    yaml: ['version: 1', ...MODELS, 'agents:', '  a: { model: demo }', '  a: { model: demo }'],
    problems: ['bad.yaml:8:3: Map keys must be unique'],
  },
  {
    name: 'an empty file',
    yaml: ['# nothing here', ''],
    problems: ['bad.yaml:1:1: the file is empty (a graph file starts with "version: 1" and defines models and agents)'],
  },
  {
    name: 'a list at the top',
    yaml: ['- version: 1'],
    problems: ['bad.yaml:1:1: the top level must be a mapping, got a list'],
  },
  {
    name: 'a missing version',
    yaml: [...MODELS, 'agents:', '  a: { model: demo }'],
    problems: ['bad.yaml:1:1: missing required key "version" in the top level (add "version: 1" at the top of the file)'],
  },
  {
    name: 'an unsupported version',
    yaml: ['version: 2', ...MODELS, 'agents:', '  a: { model: demo }'],
    problems: ['bad.yaml:1:10: unsupported version 2 (this troupe reads version 1)'],
  },
  {
    name: 'a version that is a string',
    yaml: ['version: "1"', ...MODELS, 'agents:', '  a: { model: demo }'],
    problems: ['bad.yaml:1:10: version must be the number 1, got string "1"'],
  },
  {
    name: 'a misspelled section',
    yaml: ['version: 1', 'modles:', '  demo: { model: scripted }', 'agents:', '  a: { model: demo }'],
    problems: [
      'bad.yaml:1:1: missing required key "models" in the top level',
      'bad.yaml:2:1: unknown key "modles" in the top level (did you mean "models"?)',
      'bad.yaml:5:15: unknown model "demo" in agents.a.model (no models are defined)',
    ],
  },
  {
    name: 'a delegate that is not an agent',
    yaml: ['version: 1', ...MODELS, 'agents:', '  a: { model: demo, delegates: [b] }'],
    problems: ['bad.yaml:7:33: unknown agent "b" in agents.a.delegates[0] (available agents: a)'],
  },
  {
    name: 'a bad placement and bad concurrencies',
    yaml: [
      'version: 1',
      ...MODELS,
      'agents:',
      '  a: { model: demo, placement: remot, concurrency: 0 }',
      '  b: { model: demo, placement: worker, concurrency: 1.5 }',
      '  c: { model: demo, concurrency: two }',
      'entry: a',
    ],
    problems: [
      'bad.yaml:7:32: agents.a.placement must be one of local, remote, got string "remot" (did you mean "remote"?)',
      'bad.yaml:7:52: agents.a.concurrency must be a positive integer, got number 0',
      'bad.yaml:8:32: agents.b.placement must be one of local, remote, got string "worker"',
      'bad.yaml:8:53: agents.b.concurrency must be a positive integer, got number 1.5',
      'bad.yaml:9:34: agents.c.concurrency must be a positive integer, got string "two"',
    ],
  },
  {
    name: 'unknown agent keys',
    yaml: ['version: 1', ...MODELS, 'agents:', '  a:', '    model: demo', '    sytem: be brief', '    colour: blue'],
    problems: [
      'bad.yaml:9:5: unknown key "sytem" in agents.a (did you mean "system"?)',
      'bad.yaml:10:5: unknown key "colour" in agents.a (expected "model", "system", "tools", "workspace", "limits", "permissions", "compaction", "description", "delegates", "maxDepth", "supervision", "placement", "sandbox", "concurrency", "completion", "stepDelayMs", "retry", "toolExecution", "steeringMode", "followUpMode", "outputSchema", "outputRetries", "guardrails")',
    ],
  },
  {
    name: 'an agent without a model',
    yaml: ['version: 1', ...MODELS, 'agents:', '  a:', '    system: hi'],
    problems: ['bad.yaml:7:3: missing required key "model" in agents.a (name one of the keys of "models")'],
  },
  {
    name: 'values of the wrong type',
    yaml: [
      'version: 1',
      ...MODELS,
      'agents:',
      '  a:',
      '    model: demo',
      '    system: 42',
      '    tools: clock',
      '    limits: { maxTurns: ten, maxTokens: 1.5, maxWallTimeMs: 0, maxCost: -1 }',
      '    permissions: { mode: maybe, tools: { echo: smart } }',
    ],
    problems: [
      'bad.yaml:9:13: agents.a.system must be a string, got number 42',
      'bad.yaml:10:12: agents.a.tools must be a list, got string "clock"',
      'bad.yaml:11:25: agents.a.limits.maxTurns must be a positive integer or "unlimited", got string "ten" (without maxTurns a run stops after 50 model calls)',
      'bad.yaml:11:41: agents.a.limits.maxTokens must be a positive integer, got number 1.5',
      'bad.yaml:11:61: agents.a.limits.maxWallTimeMs must be a positive integer, got number 0',
      'bad.yaml:11:73: agents.a.limits.maxCost must be a positive number, got number -1',
      'bad.yaml:12:26: agents.a.permissions.mode must be one of allow, ask, deny, smart, got string "maybe"',
      'bad.yaml:12:48: agents.a.permissions.tools.echo must be one of allow, ask, deny, got string "smart"',
    ],
  },
  {
    name: 'an empty agent',
    yaml: ['version: 1', ...MODELS, 'agents:', '  a:'],
    problems: ['bad.yaml:7:3: agents.a must be a mapping, got nothing'],
  },
  {
    name: 'unknown references',
    yaml: ['version: 1', ...MODELS, 'agents:', '  a:', '    model: demoo', '    tools: [clok, grep, echo, echo]', 'entry: b'],
    problems: [
      'bad.yaml:8:12: unknown model "demoo" in agents.a.model (did you mean "demo"?)',
      'bad.yaml:9:13: unknown tool "clok" in agents.a.tools[0] (did you mean "clock"?)',
      'bad.yaml:9:19: unknown tool "grep" in agents.a.tools[1] (available tools: ask_user, bash, clock, echo, edit_file, list_files, read_file, search, send_update, task_complete, write_file)',
      'bad.yaml:9:31: duplicate tool "echo" in agents.a.tools',
      'bad.yaml:10:8: unknown agent or pipeline "b" in entry (available agents or pipelines: a)',
    ],
  },
  {
    name: 'two agents and no entry',
    yaml: ['version: 1', ...MODELS, 'agents:', '  a: { model: demo }', '  b: { model: demo }'],
    problems: ['bad.yaml:1:1: missing required key "entry" in the top level (name the agent or pipeline to run: a, b)'],
  },
  {
    name: 'an invalid agent name',
    yaml: ['version: 1', ...MODELS, 'agents:', '  my agent: { model: demo }'],
    problems: ['bad.yaml:7:3: invalid agent name "my agent" (use letters, digits, "_", "-" and ".")'],
  },
  {
    name: 'a vendor model without its API key',
    yaml: ['version: 1', 'models:', '  gpt:', '    model: openai:gpt-4.1-mini', 'agents:', '  a: { model: gpt }'],
    problems: ["bad.yaml:4:12: the openai provider needs an API key: set OPENAI_API_KEY, or give apiKey in the model's options (apiKey: ${OPENAI_API_KEY})"],
  },
  {
    name: 'scripted models without a script, or with two',
    yaml: [
      'version: 1',
      'models:',
      '  none: { model: scripted }',
      '  both:',
      '    model: scripted',
      '    script: [{ text: hi }]',
      '    scriptFile: steps.yaml',
      'agents:',
      '  a: { model: none }',
    ],
    files: { 'steps.yaml': '- text: hi\n' },
    problems: [
      'bad.yaml:3:3: the scripted model models.none needs "script" or "scriptFile" (list the replies it should play)',
      'bad.yaml:4:3: models.both has both "script" and "scriptFile" (keep one of them)',
    ],
  },
  {
    name: 'bad inline steps',
    yaml: [
      'version: 1',
      'models:',
      '  demo:',
      '    model: scripted',
      '    script:',
      '      - toolCalls: [{ arguments: { x: 1 } }]',
      '      - error: { kind: rate_limit }',
      '      - texts: hi',
      'agents:',
      '  a: { model: demo }',
    ],
    problems: [
      'bad.yaml:6:21: missing required key "name" in models.demo.script[0].toolCalls[0]',
      'bad.yaml:7:24: models.demo.script[1].error.kind must be one of rate_limited, overflow, auth, network, api, aborted, invalid_request, got string "rate_limit" (did you mean "rate_limited"?)',
      'bad.yaml:8:9: unknown key "texts" in models.demo.script[2] (did you mean "text"?)',
    ],
  },
  {
    name: 'a missing script file',
    yaml: ['version: 1', 'models:', '  demo:', '    model: scripted', '    scriptFile: ./missing.yaml', 'agents:', '  a: { model: demo }'],
    problems: ['bad.yaml:5:17: cannot read script file "./missing.yaml": file not found (looked for missing.yaml)'],
  },
  {
    name: 'a script file with bad steps',
    yaml: ['version: 1', 'models:', '  demo:', '    model: scripted', '    scriptFile: steps/bad.yaml', 'agents:', '  a: { model: demo }'],
    files: { 'steps/bad.yaml': ['- text: 42', '  toolCalls:', '    - arguments: { text: hello }', '- error: { kind: rate_limit }', ''].join('\n') },
    problems: [
      'steps/bad.yaml:1:9: script[0].text must be a string, got number 42',
      'steps/bad.yaml:3:7: missing required key "name" in script[0].toolCalls[0]',
      'steps/bad.yaml:4:18: script[1].error.kind must be one of rate_limited, overflow, auth, network, api, aborted, invalid_request, got string "rate_limit" (did you mean "rate_limited"?)',
    ],
  },
  {
    name: 'a script file with a syntax error',
    yaml: ['version: 1', 'models:', '  demo:', '    model: scripted', '    scriptFile: steps.yaml', 'agents:', '  a: { model: demo }'],
    files: { 'steps.yaml': '- text: "unclosed\n' },
    problems: ['steps.yaml:2:1: Missing closing "quote'],
  },
  {
    name: 'unset environment variables',
    yaml: [
      'version: 1',
      'models:',
      '  demo:',
      '    model: ${MODEL}',
      '    script: [{ text: "Hello ${NAME}, ${GREETING:-hi}" }]',
      'agents:',
      '  a: { model: demo, system: "You are ${ROLE} and ${ROLE}." }',
    ],
    env: { MODEL: 'scripted' },
    problems: [
      'bad.yaml:5:29: environment variable "NAME" is not set (set it, give a fallback with ${NAME:-value}, or write $${ for a literal ${)',
      'bad.yaml:7:38: environment variable "ROLE" is not set (set it, give a fallback with ${ROLE:-value}, or write $${ for a literal ${)',
      'bad.yaml:7:50: environment variable "ROLE" is not set (set it, give a fallback with ${ROLE:-value}, or write $${ for a literal ${)',
    ],
  },
  {
    name: 'an unset variable naming the model',
    yaml: ['version: 1', 'models:', '  demo:', '    model: ${MODEL}', '    script: [{ text: hi }]', 'agents:', '  a: { model: demo }'],
    problems: ['bad.yaml:4:12: environment variable "MODEL" is not set (set it, give a fallback with ${MODEL:-value}, or write $${ for a literal ${)'],
  },
  {
    name: 'a malformed variable reference',
    yaml: ['version: 1', ...MODELS, 'agents:', '  a: { model: demo, system: "cost ${1X} and ${OPEN" }'],
    problems: [
      'bad.yaml:7:35: malformed variable reference "${1X}" (write ${NAME} or ${NAME:-fallback}, or $${ for a literal ${)',
      'bad.yaml:7:45: malformed variable reference "${OPEN" (write ${NAME} or ${NAME:-fallback}, or $${ for a literal ${)',
    ],
  },
  {
    name: 'empty sections',
    yaml: ['version: 1', 'models: {}', 'agents: {}'],
    problems: ['bad.yaml:2:9: models must not be empty', 'bad.yaml:3:9: agents must not be empty'],
  },
  {
    name: 'problems in every section at once, the graph file first',
    yaml: [
      'version: 3',
      'models:',
      '  demo: { model: scripted, scriptFile: steps.yaml }',
      '  gpt: { model: "openai:gpt-4.1-mini" }',
      'agents:',
      '  a: { model: gtp, tools: [clock, shell], limits: { maxTurns: 0 } }',
      'entry: z',
    ],
    files: { 'steps.yaml': '- text: [not, text]\n' },
    problems: [
      'bad.yaml:1:10: unsupported version 3 (this troupe reads version 1)',
      "bad.yaml:4:17: the openai provider needs an API key: set OPENAI_API_KEY, or give apiKey in the model's options (apiKey: ${OPENAI_API_KEY})",
      'bad.yaml:6:15: unknown model "gtp" in agents.a.model (did you mean "gpt"?)',
      'bad.yaml:6:35: unknown tool "shell" in agents.a.tools[1] (available tools: ask_user, bash, clock, echo, edit_file, list_files, read_file, search, send_update, task_complete, write_file)',
      'bad.yaml:6:63: agents.a.limits.maxTurns must be a positive integer or "unlimited", got number 0 (without maxTurns a run stops after 50 model calls)',
      'bad.yaml:7:8: unknown agent or pipeline "z" in entry (available agents or pipelines: a)',
      'steps.yaml:1:9: script[0].text must be a string, got a list',
    ],
  },
];

function memoryFiles(files: Record<string, string>): (path: string) => Promise<string> {
  return async (path) => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    return text;
  };
}

async function problemsOf(testCase: BadFile): Promise<string[]> {
  const files = { 'bad.yaml': testCase.yaml.join('\n'), ...testCase.files };
  try {
    await loadGraphFile('bad.yaml', { env: testCase.env ?? {}, readTextFile: memoryFiles(files) });
  } catch (error) {
    if (error instanceof GraphFileError) return error.problems.map(formatGraphProblem);
    throw error;
  }
  throw new Error('the file loaded without problems');
}

describe('bad graph files', () => {
  it.each(cases)('reports $name', async (testCase) => {
    expect(await problemsOf(testCase)).toEqual(testCase.problems);
  });

  it('reports a missing graph file at its first position', async () => {
    await expect(loadGraphFile('/nonexistent/graph.yaml')).rejects.toMatchObject({
      code: 'invalid_graph_file',
      problems: [{ file: '/nonexistent/graph.yaml', line: 1, col: 1, message: 'cannot read the graph file: file not found' }],
    });
  });
});
