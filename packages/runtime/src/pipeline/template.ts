import { TroupeError } from '@troupe/core';
import { PipelineErrorCode } from '../runtime-error-codes.js';

/** What templates can read: `{{input}}`, `{{steps.<id>.output…}}`, and in a map `{{item}}`, `{{index}}`. */
export interface TemplateScope {
  input: unknown;
  steps: Record<string, { output: unknown }>;
  item?: unknown;
  index?: number;
}

const EXPRESSION = /\{\{\s*([^}]+?)\s*\}\}/g;

/** Reads one `a.b.0.c` expression from the scope; throws a typed error naming what is missing. */
export function lookup(expression: string, scope: TemplateScope): unknown {
  const [head, ...rest] = expression.split('.');
  if (head === undefined || !(head in scope) || (head !== 'input' && head !== 'steps' && head !== 'item' && head !== 'index')) {
    throw new TroupeError(
      PipelineErrorCode.Template,
      `unknown template name "${head ?? ''}" in {{${expression}}} (use input, steps.<id>.output, item or index)`,
    );
  }
  let value: unknown = scope[head];
  let path = head;
  for (const key of rest) {
    if (value === null || typeof value !== 'object' || !(key in value)) {
      const hint = head === 'steps' && path === 'steps' ? ` (earlier steps: ${Object.keys(scope.steps).join(', ') || 'none'})` : '';
      throw new TroupeError(PipelineErrorCode.Template, `{{${expression}}}: ${path} has no "${key}"${hint}`);
    }
    value = (value as Record<string, unknown>)[key];
    path = `${path}.${key}`;
  }
  return value;
}

/** Fills every `{{…}}` of `template`; non-string values are written as JSON. */
export function render(template: string, scope: TemplateScope): string {
  return template.replace(EXPRESSION, (_, expression: string) => {
    const value = lookup(expression, scope);
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/**
 * The value of a template that is one expression (`{{steps.outline.output}}`), unchanged; a
 * template with other text renders to a string.
 */
export function resolve(template: string, scope: TemplateScope): unknown {
  const whole = /^\s*\{\{\s*([^}]+?)\s*\}\}\s*$/.exec(template);
  return whole?.[1] === undefined ? render(template, scope) : lookup(whole[1], scope);
}
