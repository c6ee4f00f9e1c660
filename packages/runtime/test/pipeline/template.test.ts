/**
 * Pipeline templates: `{{input}}`, `{{steps.<id>.output…}}`, `{{item}}` and `{{index}}` are
 * filled in (non-strings as JSON); a template that is one expression resolves to the raw value;
 * unknown names and missing fields are typed errors that say what exists.
 */
import { describe, expect, it } from 'vitest';
import { lookup, render, resolve } from '../../src/pipeline/template.js';

const scope = { input: 'cats', steps: { outline: { output: ['a', 'b'] }, meta: { output: { title: 'On cats', tags: ['x'] } } }, item: 'b', index: 1 };

describe('templates', () => {
  it('fill in strings as they are and other values as JSON', () => {
    expect(render('About {{input}}: {{ steps.outline.output }} / {{steps.meta.output.title}} #{{index}} {{item}}', scope)).toBe(
      'About cats: ["a","b"] / On cats #1 b',
    );
    expect(lookup('steps.meta.output.tags.0', scope)).toBe('x');
  });

  it('resolve a lone expression to its raw value', () => {
    expect(resolve('{{steps.outline.output}}', scope)).toEqual(['a', 'b']);
    expect(resolve('list: {{steps.outline.output}}', scope)).toBe('list: ["a","b"]');
  });

  it('name what is missing', () => {
    expect(() => render('{{inptu}}', scope)).toThrow('unknown template name "inptu" in {{inptu}} (use input, steps.<id>.output, item or index)');
    expect(() => render('{{steps.draft.output}}', scope)).toThrow('{{steps.draft.output}}: steps has no "draft" (earlier steps: outline, meta)');
    expect(() => render('{{steps.meta.output.author}}', scope)).toThrow('{{steps.meta.output.author}}: steps.meta.output has no "author"');
  });
});
