/**
 * Proves `defineTool` turns a zod object schema into a tool: `execute` gets arguments typed from
 * the schema (checked by the spec typecheck) with defaults applied; the JSON Schema sent to the
 * model is derived from it (descriptions, enums, defaulted fields optional, no `$schema`);
 * arguments the schema rejects give an error result without running `execute`; a string return
 * is a text result; bad definitions throw at once; and an agent on the scripted model calls it.
 */
import { Agent, type ToolResultMessage } from '@troupe/core';
import { createScriptedProvider } from '@troupe/core/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/define-tool.js';
import { testToolContext } from './tool-context.js';

const forecastArgs = z.object({
  city: z.string().min(1).describe('The city'),
  unit: z.enum(['C', 'F']).default('C').describe('Temperature unit'),
  days: z.number().int().min(1).max(7).optional(),
});

function forecastTool(calls: unknown[] = []) {
  return defineTool({
    name: 'forecast',
    label: 'Forecast',
    description: 'The forecast for a city.',
    parameters: forecastArgs,
    readOnly: true,
    execute(args) {
      expectTypeOf(args).toEqualTypeOf<{ city: string; unit: 'C' | 'F'; days?: number | undefined }>();
      calls.push(args);
      return `${args.city}: 21 °${args.unit} for ${args.days ?? 1} day(s)`;
    },
  });
}

describe('defineTool', () => {
  it('derives the JSON Schema the model sees from the zod schema', () => {
    const tool = forecastTool();
    expect(tool).toMatchObject({ name: 'forecast', label: 'Forecast', description: 'The forecast for a city.', readOnly: true });
    expect(tool.idempotent).toBeUndefined();
    expect(defineTool({ name: 'put', description: 'Puts.', idempotent: true, execute: () => 'put' }).idempotent).toBe(true);
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1, description: 'The city' },
        unit: { type: 'string', enum: ['C', 'F'], default: 'C', description: 'Temperature unit' },
        days: { type: 'integer', minimum: 1, maximum: 7 },
      },
      required: ['city'],
    });
  });

  it('runs execute on parsed arguments, defaults applied, and makes a string a text result', async () => {
    const calls: unknown[] = [];
    const result = await forecastTool(calls).execute({ city: 'Oslo' }, testToolContext());
    expect(calls).toEqual([{ city: 'Oslo', unit: 'C' }]);
    expect(result).toEqual({ content: 'Oslo: 21 °C for 1 day(s)' });
  });

  it('answers arguments the schema rejects with an error result and does not run execute', async () => {
    const calls: unknown[] = [];
    const result = await forecastTool(calls).execute({ city: '', days: 9 }, testToolContext());
    expect(calls).toEqual([]);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^invalid arguments for forecast:/);
    expect(result.content).toContain('city');
    expect(result.content).toContain('days');
  });

  it('takes no arguments when parameters are left out, and passes results through', async () => {
    const tool = defineTool({ name: 'ping', description: 'Answers pong.', execute: () => ({ content: 'pong', details: { ok: true } }) });
    expect(tool.parameters).toEqual({ type: 'object', properties: {} });
    expect(await tool.execute({}, testToolContext())).toEqual({ content: 'pong', details: { ok: true } });
  });

  it('throws at once for a bad name, a schema that is not an object, or one without a JSON Schema form', () => {
    const execute = (): string => 'x';
    expect(() => defineTool({ name: 'get weather', description: 'd', execute })).toThrow(/name "get weather" must be 1 to 64 letters/);
    expect(() => defineTool({ name: 'list', description: 'd', parameters: z.array(z.string()) as never, execute })).toThrow(/must be a z\.object/);
    expect(() => defineTool({ name: 'when', description: 'd', parameters: z.object({ at: z.date() }), execute })).toThrow(
      /parameters of when have no JSON Schema form/,
    );
  });

  it('is called by an agent on the scripted model, and its result reaches the model', async () => {
    const agent = new Agent({
      provider: createScriptedProvider([
        { toolCalls: [{ name: 'forecast', arguments: { city: 'Lima', unit: 'F', days: 2 } }] },
        { text: 'It says: {{lastToolResult}}' },
      ]),
      model: 'scripted',
      tools: [forecastTool()],
    });
    const result = await agent.prompt('Weather in Lima?');
    expect(result.text).toBe('It says: Lima: 21 °F for 2 day(s)');
    const toolResult = result.messages.find((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(toolResult?.isError).toBe(false);
  });
});
