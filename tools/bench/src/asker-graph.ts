import type { GraphConfig } from '@troupe/runtime';

/** One agent that asks the user a question (the runtime's built-in ask_user), then answers "ok". */
export const askerGraph: GraphConfig = {
  version: 1,
  file: 'bench.yaml',
  entry: 'asker',
  models: {
    asker: {
      name: 'asker',
      spec: { provider: 'scripted', model: 'asker' },
      script: [{ toolCalls: [{ name: 'ask_user', arguments: { question: 'Go on?' } }] }, { text: 'ok' }],
    },
  },
  agents: { asker: { name: 'asker', model: 'asker', tools: ['ask_user'] } },
};
