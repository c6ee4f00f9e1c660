/**
 * Proves `withModelOverride` (what `troupe run --model` does): the entry agent runs on the given
 * `provider:model`, keeping its model options when the provider stays the same and dropping them
 * when it changes, without changing the graph it was given, with the catalog's context window for
 * the new model (regression: an overridden model had none, so it compacted only after an
 * overflow); a scripted spec, a malformed spec and an unknown agent are typed errors.
 */
import { ProviderConfigError } from '@troupe/providers';
import { describe, expect, it } from 'vitest';
import { parseGraph } from '../../src/config/load-graph.js';
import { OVERRIDE_MODEL, withModelOverride } from '../../src/config/model-override.js';
import { UnknownAgentError } from '../../src/config/unknown-agent-error.js';

const graph = await parseGraph(
  [
    'version: 1',
    'models:',
    '  local:',
    '    model: ollama:qwen3',
    '    baseUrl: http://127.0.0.1:9/v1',
    '    thinking: low',
    'agents:',
    '  a: { model: local }',
    '',
  ].join('\n'),
  { file: 'g.yaml', env: {} },
);

describe('withModelOverride', () => {
  it('keeps the options for the same provider', () => {
    const next = withModelOverride(graph, 'ollama:llama3');
    expect(next.agents['a']?.model).toBe(OVERRIDE_MODEL);
    expect(next.models[OVERRIDE_MODEL]).toEqual({
      name: OVERRIDE_MODEL,
      spec: { provider: 'ollama', model: 'llama3' },
      options: { baseUrl: 'http://127.0.0.1:9/v1', thinking: 'low' },
    });
    expect(graph.agents['a']?.model).toBe('local');
  });

  it('starts from defaults for another provider', () => {
    expect(withModelOverride(graph, 'anthropic:claude-sonnet-4-5').models[OVERRIDE_MODEL]).toEqual({
      name: OVERRIDE_MODEL,
      spec: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      contextWindow: 200_000,
    });
  });

  it('rejects scripted and malformed specs and unknown agents', () => {
    expect(() => withModelOverride(graph, 'scripted')).toThrow(ProviderConfigError);
    expect(() => withModelOverride(graph, 'acme:x')).toThrow(ProviderConfigError);
    expect(() => withModelOverride(graph, 'openai:gpt-4.1', 'nobody')).toThrow(UnknownAgentError);
  });
});
