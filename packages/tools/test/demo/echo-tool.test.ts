/**
 * Proves the echo demo tool is read-only, requires a string `text` in its schema, and returns
 * that text unchanged as its result.
 */
import { describe, expect, it } from 'vitest';
import { createEchoTool } from '../../src/demo/echo-tool.js';
import { testToolContext } from '../tool-context.js';

describe('createEchoTool', () => {
  it('returns the text argument', async () => {
    const result = await createEchoTool().execute({ text: 'hello there' }, testToolContext());
    expect(result).toEqual({ content: 'hello there' });
  });

  it('declares text as a required string and is read-only', () => {
    const tool = createEchoTool();
    expect(tool.name).toBe('echo');
    expect(tool.readOnly).toBe(true);
    expect(tool.parameters).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
  });
});
