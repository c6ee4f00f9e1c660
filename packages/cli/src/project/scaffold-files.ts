/** A file `troupe init` writes, by its path relative to the project directory. */
export interface ScaffoldFile {
  path: string;
  content: string;
  /** What it is, for the list `troupe init` prints. */
  about: string;
}

// The TypeScript files are lists of lines, so that no line of this file starts with `import`: the
// repository's checks read the imports of source files line by line.

/** The question the scaffolded agent answers offline; printed in the next steps. */
export const SCAFFOLD_INPUT = 'How warm is 21 °C in Fahrenheit?';

/** The scripts `troupe init` adds to package.json (an existing script of the same name is kept). */
export const SCAFFOLD_SCRIPTS: Readonly<Record<string, string>> = {
  start: 'troupe run graph.yaml',
  validate: 'troupe graph validate graph.yaml',
  test: 'tsx --test test/*.test.ts',
  typecheck: 'tsc',
};

/** The packages a scaffolded project uses: Troupe's at `troupeVersion`, the rest at the versions Troupe is tested with. */
export function scaffoldDependencies(troupeVersion: string): { dependencies: Record<string, string>; devDependencies: Record<string, string> } {
  const troupe = `^${troupeVersion}`;
  return {
    dependencies: { '@troupe/cli': troupe, '@troupe/core': troupe, '@troupe/providers': troupe, '@troupe/tools': troupe, zod: '^4.6.7' },
    devDependencies: { '@types/node': '^20.19.43', tsx: '^4.23.15', typescript: '^5.9.3' },
  };
}

/** The lines `troupe init` makes sure `.gitignore` has. */
export const SCAFFOLD_IGNORES = ['node_modules/', '.env', '.troupe/'];

/**
 * The files of a new Troupe project (besides package.json and .gitignore, which are merged): a
 * graph file on a scripted model (offline) naming the installed JSON Schema, a custom tool made
 * with `defineTool`, its test on the scripted model, `.env.example`, a tsconfig and a README.
 */
export function scaffoldFiles(name: string): ScaffoldFile[] {
  return [
    { path: 'graph.yaml', about: 'the agent graph (a scripted model: runs offline)', content: GRAPH },
    { path: 'tools/convert-temperature.ts', about: 'a custom tool (defineTool and a zod schema)', content: TOOL },
    { path: 'test/convert-temperature.test.ts', about: 'its test, on the scripted model', content: TEST },
    { path: '.env.example', about: 'API keys for real models: copy it to .env', content: ENV_EXAMPLE },
    { path: 'tsconfig.json', about: 'TypeScript settings (npm run typecheck)', content: TSCONFIG },
    { path: 'README.md', about: 'what is where', content: readme(name) },
  ];
}

const GRAPH = `# yaml-language-server: $schema=./node_modules/@troupe/runtime/schema/graph.schema.json
version: 1
models:
  main:
    model: scripted     # replays the replies below, offline; for a real model write e.g.
    script:             # openai:gpt-4.1-mini, drop the script and set OPENAI_API_KEY in .env
      - text: Let me convert that.
        toolCalls: [{ name: convert_temperature, arguments: { value: 21, from: C } }]
      - text: "{{lastToolResult}}"
agents:
  assistant:
    model: main
    system: You answer questions about temperatures. Convert with the convert_temperature tool.
    tools:
      - module: ./tools/convert-temperature.ts   # its exported tools, relative to this file
    limits: { maxTurns: 10, maxWallTimeMs: 60000 }
    permissions: { mode: smart }                 # read-only tools run, others ask
entry: assistant
`;

const TOOL = [
  "import { defineTool } from '@troupe/tools';",
  "import { z } from 'zod';",
  '',
  '/** Converts a temperature between Celsius and Fahrenheit. */',
  'export default defineTool({',
  "  name: 'convert_temperature',",
  "  description: 'Converts a temperature between Celsius (C) and Fahrenheit (F).',",
  '  parameters: z.object({',
  "    value: z.number().describe('The temperature to convert'),",
  "    from: z.enum(['C', 'F']).describe('The unit of value'),",
  '  }),',
  '  readOnly: true,',
  '  execute: ({ value, from }) => {',
  "    const to = from === 'C' ? 'F' : 'C';",
  "    const converted = from === 'C' ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;",
  '    return `${value} °${from} is ${Math.round(converted * 10) / 10} °${to}.`;',
  '  },',
  '});',
  '',
].join('\n');

const TEST = [
  "import assert from 'node:assert/strict';",
  "import { test } from 'node:test';",
  "import { Agent } from '@troupe/core';",
  "import { createScriptedProvider } from '@troupe/providers/testing';",
  "import convertTemperature from '../tools/convert-temperature.js';",
  '',
  '// The scripted model replays these replies in order, so the agent runs offline and the same every time.',
  'function agentReplaying(...replies: Parameters<typeof createScriptedProvider>[0]) {',
  "  return new Agent({ provider: createScriptedProvider(replies), model: 'scripted', tools: [convertTemperature] });",
  '}',
  '',
  "test('the agent converts with convert_temperature', async () => {",
  "  const agent = agentReplaying({ toolCalls: [{ name: 'convert_temperature', arguments: { value: 21, from: 'C' } }] }, { text: '{{lastToolResult}}' });",
  "  const result = await agent.prompt('How warm is 21 °C in Fahrenheit?');",
  "  assert.equal(result.text, '21 °C is 69.8 °F.');",
  '});',
  '',
  "test('an unknown unit comes back to the model as an error, and the tool does not run', async () => {",
  "  const agent = agentReplaying({ toolCalls: [{ name: 'convert_temperature', arguments: { value: 300, from: 'K' } }] }, { text: 'Sorry.' });",
  "  const result = await agent.prompt('How warm is 300 K?');",
  "  const toolResult = result.messages.find((message) => message.role === 'toolResult');",
  '  assert.equal(toolResult?.isError, true);',
  '});',
  '',
].join('\n');

const ENV_EXAMPLE = `# Copy this file to .env (git ignores it). troupe reads .env in the current directory and in the
# graph file's directory; a variable already set in the environment wins.
# OPENAI_API_KEY=
# ANTHROPIC_API_KEY=
# GEMINI_API_KEY=
`;

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2023",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true,
    "types": ["node"]
  },
  "include": ["tools", "test"]
}
`;

function readme(name: string): string {
  return `# ${name}

Agents run by Troupe, a multi-agent actor runtime for TypeScript.

\`\`\`bash
npx troupe run graph.yaml --input "${SCAFFOLD_INPUT}"   # the agent, offline
npm test                                  # the tool's tests, on the scripted model
npx troupe graph validate graph.yaml      # every problem of the graph, with its position
npx troupe runs                           # the recorded runs (.troupe/runs)
\`\`\`

- \`graph.yaml\`: models and agents. The \`scripted\` model replays fixed replies, so it runs
  offline; for a real one write e.g. \`model: openai:gpt-4.1-mini\`, drop \`script:\`, and put its
  key in \`.env\` (copy \`.env.example\`).
- \`tools/convert-temperature.ts\`: a custom tool, made with \`defineTool\` from \`@troupe/tools\`:
  the zod schema types the arguments, becomes the JSON Schema the model sees, and checks every
  call. The graph lists it as \`- module: ./tools/convert-temperature.ts\`; a module exports its
  tools as the default export (one, or a list) or by name.
- \`test/\`: \`node:test\` tests run by tsx, on the scripted model (\`createScriptedProvider\`).
`;
}
