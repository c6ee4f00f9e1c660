/**
 * Proves vendor models in graph files: `model: anthropic:…` with `apiKey` (from `${ENV}`),
 * `baseUrl`, `headers`, `thinking`, `maxTokens` and `cache` loads into `ModelConfig.options` with
 * the catalog's context window; the agent built from it gets a provider of that vendor and the
 * thinking level and output limit; and bad values are reported at their file:line:col — a
 * malformed base URL, an unknown thinking level, a non-positive maxTokens, `cache` on a
 * non-Anthropic model, connection keys on a scripted model, a missing API key and an
 * OpenAI-compatible server without a base URL.
 */
import { describe, expect, it } from 'vitest';
import { agentOptionsFromConfig } from '../../src/agent-from-config.js';
import { GraphFileError } from '../../src/config/graph-file-error.js';
import { parseGraph } from '../../src/config/load-graph.js';

const AGENTS = ['agents:', '  a: { model: m }'];

async function problems(lines: string[], env: Record<string, string> = {}): Promise<string[]> {
  try {
    await parseGraph([...lines, ''].join('\n'), { file: 'g.yaml', env });
  } catch (error) {
    if (error instanceof GraphFileError) return error.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('vendor models in graph files', () => {
  it('loads the options and the context window', async () => {
    const graph = await parseGraph(
      [
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
        ...AGENTS,
      ].join('\n'),
      { file: 'g.yaml', env: { MY_KEY: 'sk-ant-from-env' } },
    );
    expect(graph.models['m']).toEqual({
      name: 'm',
      spec: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      options: {
        apiKey: 'sk-ant-from-env',
        baseUrl: 'http://127.0.0.1:9999',
        headers: { 'x-team': 'blue' },
        thinking: 'medium',
        maxTokens: 2048,
        cache: { message: 'last', ttl: '1h' },
      },
      contextWindow: 200_000,
    });
    const options = agentOptionsFromConfig(graph, 'a', { env: {} });
    expect(options.provider.name).toBe('anthropic');
    expect(options.model).toBe('claude-sonnet-4-5');
    expect(options.thinking).toBe('medium');
    expect(options.maxTokens).toBe(2048);
  });

  it('takes the key from the environment when apiKey is left out', async () => {
    const graph = await parseGraph(['version: 1', 'models:', '  m: { model: "ollama:qwen3:8b" }', ...AGENTS].join('\n'), { file: 'g.yaml', env: {} });
    expect(graph.models['m']).toEqual({ name: 'm', spec: { provider: 'ollama', model: 'qwen3:8b' } });
    expect(agentOptionsFromConfig(graph, 'a').provider.name).toBe('ollama');
    const openai = await parseGraph(['version: 1', 'models:', '  m: { model: "openai:gpt-4.1-mini" }', ...AGENTS].join('\n'), {
      file: 'g.yaml',
      env: { OPENAI_API_KEY: 'sk-x' },
    });
    expect(openai.models['m']?.contextWindow).toBe(1_047_576);
  });

  it('reports bad values at their positions', async () => {
    expect(
      await problems([
        'version: 1',
        'models:',
        '  m:',
        '    model: openai:gpt-4.1-mini',
        '    apiKey: sk-x',
        '    baseUrl: not a url',
        '    thinking: medum',
        '    maxTokens: 0',
        '    cache: true',
        '  s:',
        '    model: scripted',
        '    script: [{ text: hi }]',
        '    apiKey: sk-y',
        ...AGENTS,
      ]),
    ).toEqual([
      '6:14: models.m.baseUrl must be an http or https URL, got "not a url"',
      '7:15: models.m.thinking must be one of off, minimal, low, medium, high, xhigh, got string "medum"',
      '8:16: models.m.maxTokens must be a positive integer, got number 0',
      '9:12: models.m.cache applies to anthropic models only',
      '13:13: models.s.apiKey is for vendor models, not scripted ones',
    ]);
  });

  it('reports a missing key and a missing base URL at the model line', async () => {
    expect(await problems(['version: 1', 'models:', '  m:', '    model: google:gemini-2.5-flash', ...AGENTS])).toEqual([
      "4:12: the google provider needs an API key: set GEMINI_API_KEY or GOOGLE_API_KEY, or give apiKey in the model's options (apiKey: ${GEMINI_API_KEY})",
    ]);
    expect(await problems(['version: 1', 'models:', '  m:', '    model: google:gemini-2.5-flash', ...AGENTS], { GOOGLE_API_KEY: 'AIza-x' })).toEqual([]);
    expect(await problems(['version: 1', 'models:', '  m:', '    model: openai-compatible:my-model', ...AGENTS])).toEqual([
      '4:12: the openai-compatible provider needs a base URL: give baseUrl (for example http://127.0.0.1:8000/v1)',
    ]);
  });

  it('does not also report a missing key when the apiKey variable is unset', async () => {
    expect(await problems(['version: 1', 'models:', '  m:', '    model: openai:gpt-4.1-mini', '    apiKey: ${NOPE}', ...AGENTS])).toEqual([
      '5:13: environment variable "NOPE" is not set',
    ]);
  });
});
