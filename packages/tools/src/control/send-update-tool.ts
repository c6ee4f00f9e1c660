import { defineTool, type Tool } from '@troupe/core';

/** Arguments of the send_update tool. */
export interface SendUpdateArgs extends Record<string, unknown> {
  message: string;
}

/**
 * `send_update`: reports progress to whoever watches the run (a `tool_update` event carrying the
 * message as `progress`) without stopping; the model gets a short acknowledgement. Read-only.
 */
export function createSendUpdateTool(): Tool {
  return defineTool<SendUpdateArgs>({
    name: 'send_update',
    label: 'Send an update',
    description: 'Tell the user how the work is going without stopping (for long tasks). The user cannot answer; keep working after it.',
    parameters: {
      type: 'object',
      properties: { message: { type: 'string', minLength: 1, description: 'A short progress message.' } },
      required: ['message'],
      additionalProperties: false,
    },
    readOnly: true,
    execute(args, ctx) {
      ctx.progress(args.message);
      return { content: 'Update sent.', details: { message: args.message } };
    },
  });
}
