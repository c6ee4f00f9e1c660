import { defineTool, type Tool } from '@troupe/core';

/** Arguments of the ask_user tool. */
export interface AskUserArgs extends Record<string, unknown> {
  question: string;
}

/**
 * `ask_user`: pauses the run with a question for the user (the agent enters `waiting_user`); the
 * user's answer becomes this call's result. Read-only: asking changes nothing.
 */
export function createAskUserTool(): Tool {
  return defineTool<AskUserArgs>({
    name: 'ask_user',
    label: 'Ask the user',
    description:
      "Ask the user a question and wait for the answer. Use it when you need a decision or information only the user has; the answer comes back as this tool's result.",
    parameters: {
      type: 'object',
      properties: { question: { type: 'string', minLength: 1, description: 'The question, complete and self-contained.' } },
      required: ['question'],
      additionalProperties: false,
    },
    readOnly: true,
    execute(args) {
      return { content: args.question, control: { type: 'suspend', question: args.question } };
    },
  });
}
