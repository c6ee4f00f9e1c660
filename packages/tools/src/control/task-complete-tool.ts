import { defineTool, type Tool } from '@troupe/core';

/** Arguments of the task_complete tool. */
export interface TaskCompleteArgs extends Record<string, unknown> {
  summary: string;
}

/**
 * `task_complete`: ends the run successfully (stop reason `complete`) with `{ summary }` as the
 * run's value. Read-only: it changes nothing outside the run.
 */
export function createTaskCompleteTool(): Tool {
  return defineTool<TaskCompleteArgs>({
    name: 'task_complete',
    label: 'Complete the task',
    description: 'Declare the task finished. Call it once, last, with a short summary of what was done and its outcome.',
    parameters: {
      type: 'object',
      properties: { summary: { type: 'string', minLength: 1, description: 'What was done and the outcome.' } },
      required: ['summary'],
      additionalProperties: false,
    },
    readOnly: true,
    execute(args) {
      return { content: args.summary, control: { type: 'complete', value: { summary: args.summary } } };
    },
  });
}
