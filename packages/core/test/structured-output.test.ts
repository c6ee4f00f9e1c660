/**
 * Structured output on a plain Agent (issue 14 §5, Swink acceptance criterion 11): with an
 * `outputSchema` the system prompt asks for JSON that matches it; a final answer that parses and
 * validates is the result's `value`; one that does not is asked for again in the same conversation
 * (the problem said in a user message) up to `outputRetries` times, then the run ends with stop
 * reason `error`, code `invalid_output`. Tool calls before the answer are not checked, a
 * ```json fence is tolerated, the limits still apply, and a snapshot taken while the answer is
 * asked again restores and goes on.
 */
import { describe, expect, it } from 'vitest';
import { Agent, outputInstruction, parseJsonOutput, SchemaValidator, textOf, type AgentOptions } from '../src/index.js';
import { createScriptedProvider, type ScriptStep } from '../src/testing.js';
import { ALLOW, echoTool } from './support.js';

const schema = { type: 'object', properties: { city: { type: 'string' }, temp: { type: 'number' } }, required: ['city', 'temp'], additionalProperties: false };

function setup(script: ScriptStep[], options: Partial<AgentOptions> = {}) {
  const provider = createScriptedProvider(script);
  const agent = new Agent({
    provider,
    model: 'm',
    systemPrompt: 'You report weather.',
    outputSchema: schema,
    permissions: ALLOW,
    tools: [echoTool()],
    ...options,
  });
  return { provider, agent };
}

describe('structured output', () => {
  it('gives the parsed final answer as the value, and tells the model the schema', async () => {
    const { agent, provider } = setup([
      { toolCalls: [{ name: 'echo', arguments: { text: 'not JSON, and not checked' } }] },
      { text: '```json\n{"city":"Oslo","temp":4}\n```' },
    ]);
    const result = await agent.prompt('weather in Oslo?');
    expect(result.stopReason).toBe('stop');
    expect(result.value).toEqual({ city: 'Oslo', temp: 4 });
    expect(result.turns).toBe(2);
    expect(provider.requests[0]?.systemPrompt).toBe(`You report weather.\n\n${outputInstruction(schema)}`);
  });

  it('asks again in the same conversation while the answer is not acceptable', async () => {
    const { agent, provider } = setup([{ text: 'It is 4 degrees in Oslo.' }, { text: '{"city":"Oslo","temp":"4"}' }, { text: '{"city":"Oslo","temp":4}' }], {
      outputRetries: 2,
    });
    const result = await agent.prompt('weather?');
    expect(result.value).toEqual({ city: 'Oslo', temp: 4 });
    expect(result.turns).toBe(3);
    const asks = result.messages.filter((m) => m.role === 'user').map((m) => textOf(m));
    expect(asks[0]).toBe('weather?');
    expect(asks[1]).toMatch(/^Your previous reply was not acceptable: it is not valid JSON .*Reply again with JSON only\.$/);
    expect(asks[2]).toBe('Your previous reply was not acceptable: it does not match the schema: temp: must be number. Reply again with JSON only.');
    // Each retry sees the whole conversation so far.
    expect(provider.requests[2]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });

  it('fails the run with invalid_output once the retries are spent', async () => {
    const { agent } = setup([{ text: 'no' }, { text: 'still no' }]);
    const result = await agent.prompt('weather?');
    expect(result.stopReason).toBe('error');
    expect(result.error).toMatchObject({ code: 'invalid_output', data: { attempts: 2 } });
    expect(result.error?.message).toMatch(/^no acceptable JSON after 2 attempts: it is not valid JSON/);
    expect(result.value).toBeUndefined();
    expect(result.text).toBe('still no');
    expect(agent.state).toBe('error');
  });

  it('with outputRetries 0 does not ask again, and a limit still ends the run first', async () => {
    const once = setup([{ text: 'no' }], { outputRetries: 0 });
    expect((await once.agent.prompt('go')).error?.code).toBe('invalid_output');

    const capped = setup([{ text: 'no' }, { text: '{"city":"x","temp":1}' }], { limits: { maxTurns: 1 }, outputRetries: 3 });
    const result = await capped.agent.prompt('go');
    expect(result.stopReason).toBe('limit');
    expect(capped.provider.requests).toHaveLength(1);
  });

  it('goes on after a restore taken while the answer is asked again', async () => {
    const script: ScriptStep[] = [{ text: 'nope' }, { text: '{"city":"Rome","temp":20}', delayMs: 0 }];
    const { agent } = setup(script);
    const asked = new Promise<void>((resolve) => agent.events$.subscribe((e) => e.type === 'turn_start' && e.turn === 2 && resolve()));
    void agent.prompt('go');
    await asked;
    const snapshot = agent.snapshot();
    agent.abort();
    expect(snapshot.context.run).toMatchObject({ outputAttempts: 1 });
    const restored = Agent.restore(JSON.parse(JSON.stringify(snapshot)), {
      provider: createScriptedProvider(script, { startAt: 1 }),
      model: 'm',
      outputSchema: schema,
      permissions: ALLOW,
    });
    const result = await restored.result;
    expect(result.value).toEqual({ city: 'Rome', temp: 20 });
  });

  it('parseJsonOutput tolerates a fence and names the schema problems', () => {
    const validator = new SchemaValidator();
    expect(parseJsonOutput('```\n{"city":"a","temp":1}\n```', schema, validator)).toEqual({ ok: true, value: { city: 'a', temp: 1 } });
    expect(parseJsonOutput('{"city":"a"}', schema, validator)).toEqual({ ok: false, problem: 'it does not match the schema: temp: is required' });
  });
});
