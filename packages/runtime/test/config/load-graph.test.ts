/**
 * Proves a valid graph file loads into the expected plain `GraphConfig`: models with parsed specs
 * and their scripts (inline or from a `scriptFile` resolved next to the graph file), agents with
 * tools, limits and permission rules, the entry agent, the default entry when the file defines
 * a single agent, and the `entry` option that overrides it.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GraphFileError } from '../../src/config/graph-file-error.js';
import { loadGraphFile, parseGraph } from '../../src/config/load-graph.js';
import { UnknownAgentError } from '../../src/config/unknown-agent-error.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('loadGraphFile', () => {
  it('loads a valid file', async () => {
    const file = fixture('assistant.yaml');
    const graph = await loadGraphFile(file, { env: {} });
    expect(graph).toEqual({
      version: 1,
      file,
      entry: 'assistant',
      models: {
        demo: {
          name: 'demo',
          spec: { provider: 'scripted', model: 'default' },
          script: [{ text: 'Let me look at the clock.', toolCalls: [{ name: 'clock' }] }, { text: 'It is now later than you think.' }],
        },
        'from-file': {
          name: 'from-file',
          spec: { provider: 'scripted', model: 'replay' },
          script: [
            { text: 'Echoing.', toolCalls: [{ name: 'echo', arguments: { text: 'hello' }, id: 'call_echo' }] },
            { error: { kind: 'rate_limited', retryAfterMs: 500 }, partialText: 'Echo' },
            { text: 'Done.', usage: { input: 12, output: 3 }, cost: 0.001 },
          ],
        },
      },
      agents: {
        assistant: {
          name: 'assistant',
          model: 'demo',
          systemPrompt: 'You are a helpful assistant.',
          tools: ['clock', 'echo'],
          limits: { maxTurns: 10, maxTokens: 100000, maxWallTimeMs: 60000, maxCost: 1 },
          permissions: { mode: 'allow' },
        },
        replayer: { name: 'replayer', model: 'from-file', tools: [], permissions: { mode: 'smart', tools: { echo: 'ask' } } },
      },
    });
  });

  it('defaults the entry to the only agent', async () => {
    const graph = await parseGraph(
      ['version: 1', 'models:', '  m: { model: scripted, script: [{ text: hi }] }', 'agents:', '  solo: { model: m }', ''].join('\n'),
      { file: 'solo.yaml', env: {} },
    );
    expect(graph.entry).toBe('solo');
    expect(graph.agents['solo']).toEqual({ name: 'solo', model: 'm', tools: [] });
  });

  it('accepts aliases, so settings can be shared', async () => {
    const graph = await parseGraph(
      [
        'version: 1',
        'models:',
        '  m: { model: scripted, script: [{ text: hi }] }',
        'agents:',
        '  a: { model: m, limits: &limits { maxTurns: 3 } }',
        '  b: { model: m, limits: *limits }',
        'entry: a',
        '',
      ].join('\n'),
      { file: 'alias.yaml', env: {} },
    );
    expect(graph.agents['b']?.limits).toEqual({ maxTurns: 3 });
  });

  it('reads files through the injected reader', async () => {
    const files: Record<string, string> = {
      'dir/graph.yaml': 'version: 1\nmodels:\n  m: { model: scripted, scriptFile: steps.yaml }\nagents:\n  a: { model: m }\n',
      'dir/steps.yaml': '- text: from memory\n',
    };
    const readTextFile = async (path: string): Promise<string> => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return text;
    };
    const graph = await loadGraphFile('dir/graph.yaml', { env: {}, readTextFile });
    expect(graph.models['m']?.script).toEqual([{ text: 'from memory' }]);
  });
});

describe('the entry option', () => {
  const twoAgents = ['version: 1', 'models:', '  m: { model: scripted, script: [{ text: hi }] }', 'agents:', '  a: { model: m }', '  b: { model: m }', ''].join(
    '\n',
  );

  it('overrides the entry, so a file with several agents need not name one', async () => {
    const graph = await parseGraph(twoAgents, { file: 'two.yaml', env: {}, entry: 'b' });
    expect(graph.entry).toBe('b');
  });

  it('is an UnknownAgentError when the file does not define it', async () => {
    const error: unknown = await parseGraph(twoAgents, { file: 'two.yaml', env: {}, entry: 'c' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownAgentError);
    expect((error as UnknownAgentError).message).toBe('unknown agent "c": available agents: a, b');
  });

  it('does not hide the problems of the file', async () => {
    await expect(parseGraph(`${twoAgents}  c: { model: nope }\n`, { file: 'two.yaml', env: {}, entry: 'zzz' })).rejects.toBeInstanceOf(GraphFileError);
  });
});
