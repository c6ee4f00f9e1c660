import { join } from 'node:path';
import { parseGraph, type GraphConfig } from '@troupe/runtime';

/** The model the built-in assistant uses for each API key found in the environment, in this order. */
const MODELS_BY_KEY: readonly (readonly [string, string])[] = [
  ['ANTHROPIC_API_KEY', 'anthropic:claude-sonnet-4-5'],
  ['OPENAI_API_KEY', 'openai:gpt-4.1-mini'],
  ['GEMINI_API_KEY', 'google:gemini-2.5-flash'],
  ['GOOGLE_API_KEY', 'google:gemini-2.5-flash'],
];

/** What the scripted model says when no model is configured. */
export const OFFLINE_NOTE =
  'No model configured: set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY (or TROUPE_MODEL, or pass --model provider:model). This chat runs on the offline scripted model.';

/**
 * The model of the built-in assistant: `TROUPE_MODEL`, else the first vendor whose API key is set
 * (Anthropic, OpenAI, Google), else undefined (the scripted model).
 */
export function modelFromEnv(env: Record<string, string | undefined>): string | undefined {
  const chosen = env['TROUPE_MODEL']?.trim();
  if (chosen !== undefined && chosen !== '') return chosen;
  return MODELS_BY_KEY.find(([key]) => (env[key] ?? '') !== '')?.[1];
}

/**
 * The graph of `troupe chat` without a graph file: one `assistant` with the built-in file tools
 * (and bash) on `cwd`, on `model` (`provider:model`), or, without one, on the scripted model,
 * which answers every message with {@link OFFLINE_NOTE}.
 */
export async function defaultChatGraph(options: { cwd: string; model?: string; env?: Record<string, string | undefined> }): Promise<GraphConfig> {
  const model =
    options.model === undefined
      ? `    model: scripted\n    contextWindow: 200000\n    script:\n${Array.from({ length: 200 }, () => `      - text: ${JSON.stringify(OFFLINE_NOTE)}`).join('\n')}`
      : `    model: ${JSON.stringify(options.model)}`;
  const text = `version: 1
models:
  main:
${model}
agents:
  assistant:
    model: main
    system: ${JSON.stringify(`You are a careful coding assistant working in ${options.cwd}. Read files before changing them, prefer small edits (edit_file) over rewriting files, and say what you changed.`)}
    tools: [read_file, list_files, search, edit_file, write_file, bash]
    limits: { maxTurns: 50 }
entry: assistant
`;
  // The file name only anchors relative paths (the workspace is the current directory); nothing is written.
  return parseGraph(text, { file: join(options.cwd, 'troupe-chat.yaml'), ...(options.env === undefined ? {} : { env: options.env }) });
}
