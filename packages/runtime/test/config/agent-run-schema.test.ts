/**
 * The run settings of issue 14 §5 in graph files: an agent's `retry`, `toolExecution`,
 * `steeringMode`/`followUpMode`, `outputSchema`/`outputRetries` and `guardrails` (built-in ones by
 * name with their settings, a custom registry's, or modules exporting guardrails), and a model's
 * `temperature`, `topP` and `thinking: xhigh`, reach the agent built from the file and change how
 * it runs; bad values are reported at their file:line:col, all at once.
 */
import { fileURLToPath } from 'node:url';
import type { InputGuardrail } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { agentOptionsFromConfig, createAgentFromConfig } from '../../src/agent-from-config.js';
import { formatGraphProblem, GraphFileError } from '../../src/config/graph-file-error.js';
import { parseGraph } from '../../src/config/load-graph.js';
import { defaultGuardrailRegistry } from '../../src/guardrails/guardrail-registry.js';

/** Written next to the guardrail modules, so `./x.ts` resolves there. */
const file = fileURLToPath(new URL('./fixtures/guardrails/graph.yaml', import.meta.url));

function graph(agent: string[], model: string[] = [], script = '[{ text: hi }]'): string {
  return ['version: 1', 'models:', '  m:', '    model: scripted', `    script: ${script}`, ...model, 'agents:', '  a:', '    model: m', ...agent, ''].join(
    '\n',
  );
}

async function problemsOf(text: string): Promise<string[]> {
  const error = await parseGraph(text, { file, env: {} }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GraphFileError);
  return (error as GraphFileError).problems.map((problem) => formatGraphProblem({ ...problem, file: 'graph.yaml' }));
}

const failure = { kind: 'network' as const, message: 'x', retryable: true };

describe('run settings in graph files', () => {
  it('reach the agent options', async () => {
    const loaded = await parseGraph(
      graph(
        [
          '    retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 150 }',
          '    toolExecution: { mode: batched, size: 3 }',
          '    steeringMode: all',
          '    followUpMode: all',
          '    outputSchema: { type: object, required: [answer] }',
          '    outputRetries: 3',
          '    guardrails: [{ maxInputLength: 100 }, { denyPatterns: { patterns: ["secret"], ignoreCase: false } }]',
        ],
        ['    thinking: xhigh', '    temperature: 0.2', '    topP: 0.9'],
      ),
      { file, env: {} },
    );
    expect(loaded.agents['a']).toMatchObject({
      retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 150 },
      toolExecution: { mode: 'batched', size: 3 },
      steeringMode: 'all',
      followUpMode: 'all',
      outputSchema: { type: 'object', required: ['answer'] },
      outputRetries: 3,
      guardrails: [
        { name: 'maxInputLength', settings: 100 },
        { name: 'denyPatterns', settings: { patterns: ['secret'], ignoreCase: false } },
      ],
    });
    const options = agentOptionsFromConfig(loaded, 'a');
    expect(options).toMatchObject({
      thinking: 'xhigh',
      temperature: 0.2,
      topP: 0.9,
      toolExecution: { mode: 'batched', size: 3 },
      steeringMode: 'all',
      followUpMode: 'all',
      outputRetries: 3,
    });
    expect(options.guardrails?.map((g) => g.name)).toEqual(['maxInputLength', 'denyPatterns']);
    // Two retries, the second capped at 150 ms; a third is not made.
    expect(options.retry?.delayFor(failure, 2)).toBeLessThanOrEqual(150);
    expect(options.retry?.delayFor(failure, 3)).toBeUndefined();
    expect(await options.guardrails?.[1]?.check({ text: 'SECRET', messages: [] }, { signal: new AbortController().signal })).toBeUndefined();
  });

  it('change how the agent runs: guardrails reject or rewrite, the output schema gives the value', async () => {
    const loaded = await parseGraph(
      graph(
        ['    outputSchema: { type: object, required: [answer] }', '    guardrails: [{ denyPatterns: ["rm -rf"] }, { module: ./no-secrets.ts }]'],
        [],
        '[{ text: "{\\"answer\\": 42}" }]',
      ),
      { file, env: {} },
    );
    const rejected = await createAgentFromConfig(loaded, 'a').prompt('please RM -RF /');
    expect(rejected).toMatchObject({ stopReason: 'rejected', error: { code: 'input_rejected', data: { guardrail: 'denyPatterns' } } });
    const byModule = await createAgentFromConfig(loaded, 'a').prompt('my password is hunter2');
    expect(byModule).toMatchObject({ stopReason: 'rejected', error: { message: 'no passwords here', data: { guardrail: 'noSecrets' } } });
    const agent = createAgentFromConfig(loaded, 'a');
    const result = await agent.prompt('please answer');
    expect(result.value).toEqual({ answer: 42 });
    // The module's default export rewrote the prompt before it entered the history.
    expect(agent.messages[0]?.content).toBe('answer');
  });

  it('names guardrails of a custom registry', async () => {
    const registry = defaultGuardrailRegistry().register('onlyAscii', {
      description: 'rejects input that is not ASCII',
      settings: { type: 'boolean' },
      create: (): InputGuardrail => ({
        name: 'onlyAscii',
        check: ({ text }) => (/^[\x20-\x7e]*$/.test(text) ? undefined : { action: 'reject', reason: 'ASCII only' }),
      }),
    });
    const loaded = await parseGraph(graph(['    guardrails: [{ onlyAscii: true }]']), { file, env: {}, guardrails: registry });
    expect((await createAgentFromConfig(loaded, 'a', { guardrails: registry }).prompt('héllo')).stopReason).toBe('rejected');
    expect(() => createAgentFromConfig(loaded, 'a')).toThrow(expect.objectContaining({ code: 'unknown_guardrail' }));
  });

  it('reports bad values at their positions, all at once', async () => {
    const problems = await problemsOf(
      graph(
        [
          '    retry: { tries: 3 }',
          '    toolExecution: { mode: batched }',
          '    steeringMode: one',
          '    outputSchema: { type: 12 }',
          '    guardrails:',
          '      - maxInputLenght: 10',
          '      - maxInputLength: 0',
          '      - denyPatterns: ["(unclosed"]',
          '      - { a: 1, b: 2 }',
          '      - module: ./empty.ts',
        ],
        ['    topP: 1.5', '    thinking: extra'],
      ),
    );
    expect(problems).toEqual([
      'graph.yaml:6:11: models.m.topP must be a number above 0 and at most 1, got number 1.5',
      'graph.yaml:7:15: models.m.thinking must be one of off, minimal, low, medium, high, xhigh, got string "extra"',
      'graph.yaml:11:14: unknown key "tries" in agents.a.retry (expected "maxRetries", "baseDelayMs", "maxDelayMs")',
      'graph.yaml:12:5: agents.a.toolExecution in batched mode needs "size" (how many calls run at once)',
      'graph.yaml:13:19: agents.a.steeringMode must be one of one-at-a-time, all, got string "one"',
      'graph.yaml:14:19: agents.a.outputSchema is not a valid JSON Schema: schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf',
      'graph.yaml:16:9: unknown guardrail "maxInputLenght" in agents.a.guardrails[0].maxInputLenght (did you mean "maxInputLength"?)',
      'graph.yaml:17:25: agents.a.guardrails[1].maxInputLength: the settings of maxInputLength are not valid: (root): must be >= 1 (maxInputLength rejects input longer than this many characters)',
      'graph.yaml:18:23: agents.a.guardrails[2].denyPatterns: Invalid regular expression: /(unclosed/i: Unterminated group',
      'graph.yaml:19:9: agents.a.guardrails[3] must name one guardrail (for example "- maxInputLength: 4000" or "- module: ./guards/pii.ts")',
      'graph.yaml:20:17: guardrail module ./empty.ts: exports no guardrail (export default { name, check(input) { … } }, or export guardrails by name)',
    ]);
  });
});
