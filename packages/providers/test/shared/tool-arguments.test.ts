/**
 * Proves tool-call arguments are parsed once complete: empty text is no arguments, a JSON object
 * is the arguments, and broken JSON or a non-object keeps the raw text with empty arguments.
 */
import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/shared/tool-arguments.js';

describe('parseToolArguments', () => {
  it.each([
    ['', { arguments: {} }],
    ['  ', { arguments: {} }],
    ['{"a":1}', { arguments: { a: 1 } }],
    ['{"a":', { arguments: {}, rawArguments: '{"a":' }],
    ['[1,2]', { arguments: {}, rawArguments: '[1,2]' }],
    ['42', { arguments: {}, rawArguments: '42' }],
  ])('%j', (text, expected) => {
    expect(parseToolArguments(text)).toEqual(expected);
  });
});
