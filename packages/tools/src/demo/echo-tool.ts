import { defineTool, type Tool } from '@troupe/core';

/** Arguments of the echo tool. */
export interface EchoArgs extends Record<string, unknown> {
  text: string;
}

/**
 * A demo tool that returns its `text` argument unchanged. Read-only. Useful to check that
 * arguments reach a tool and results reach the model.
 */
export function createEchoTool(): Tool {
  return defineTool<EchoArgs>({
    name: 'echo',
    label: 'Echo',
    description: 'Returns the given text unchanged.',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to return.' } },
      required: ['text'],
      additionalProperties: false,
    },
    readOnly: true,
    execute(args) {
      return { content: args.text };
    },
  });
}
