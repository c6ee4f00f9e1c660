import type { CatalogVendor } from './catalog/model-info.js';

/** The wire protocol a provider speaks. */
export type ProviderApi = 'scripted' | 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** What a provider name (the part before `:` in `provider:model`) stands for. Plain data. */
export interface ProviderPreset {
  readonly name: string;
  readonly api: ProviderApi;
  readonly description: string;
  /** Where requests go unless `baseUrl` is given. Absent: a base URL is required. */
  readonly baseUrl?: string;
  /** Environment variables read for the API key, in order. */
  readonly keyEnv: readonly string[];
  /** Whether a call without a key is a configuration error (local servers need none). */
  readonly keyRequired: boolean;
  /** The catalog vendor whose prices and limits apply. */
  readonly catalog?: CatalogVendor;
  /** A server on this machine: calls cost nothing. */
  readonly local?: boolean;
  /** The command that starts the server, named when a connection to it on this machine is refused. */
  readonly startCommand?: string;
}

/**
 * Every provider name this build knows. `openai` speaks the Responses API (reasoning items kept
 * across turns); `openai-chat` and the OpenAI-compatible names speak Chat Completions.
 */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { name: 'scripted', api: 'scripted', description: 'replays a script (tests, offline examples)', keyEnv: [], keyRequired: false, local: true },
  {
    name: 'openai',
    api: 'openai-responses',
    description: 'OpenAI Responses API',
    baseUrl: 'https://api.openai.com/v1',
    keyEnv: ['OPENAI_API_KEY'],
    keyRequired: true,
    catalog: 'openai',
  },
  {
    name: 'openai-chat',
    api: 'openai-chat',
    description: 'OpenAI Chat Completions API',
    baseUrl: 'https://api.openai.com/v1',
    keyEnv: ['OPENAI_API_KEY'],
    keyRequired: true,
    catalog: 'openai',
  },
  {
    name: 'anthropic',
    api: 'anthropic',
    description: 'Anthropic Messages API',
    baseUrl: 'https://api.anthropic.com',
    keyEnv: ['ANTHROPIC_API_KEY'],
    keyRequired: true,
    catalog: 'anthropic',
  },
  {
    name: 'google',
    api: 'gemini',
    description: 'Google Gemini API',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    keyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    keyRequired: true,
    catalog: 'google',
  },
  {
    name: 'gemini',
    api: 'gemini',
    description: 'Google Gemini API (same as google)',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    keyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    keyRequired: true,
    catalog: 'google',
  },
  { name: 'openai-compatible', api: 'openai-chat', description: 'any Chat Completions server (give baseUrl)', keyEnv: [], keyRequired: false },
  {
    name: 'ollama',
    api: 'openai-chat',
    description: 'Ollama',
    baseUrl: 'http://127.0.0.1:11434/v1',
    keyEnv: [],
    keyRequired: false,
    local: true,
    startCommand: 'ollama serve',
  },
  {
    name: 'lmstudio',
    api: 'openai-chat',
    description: 'LM Studio',
    baseUrl: 'http://127.0.0.1:1234/v1',
    keyEnv: [],
    keyRequired: false,
    local: true,
    startCommand: 'lms server start',
  },
  {
    name: 'llamacpp',
    api: 'openai-chat',
    description: 'llama.cpp server',
    baseUrl: 'http://127.0.0.1:8080/v1',
    keyEnv: [],
    keyRequired: false,
    local: true,
    startCommand: 'llama-server -m <model.gguf>',
  },
  {
    name: 'vllm',
    api: 'openai-chat',
    description: 'vLLM',
    baseUrl: 'http://127.0.0.1:8000/v1',
    keyEnv: ['VLLM_API_KEY'],
    keyRequired: false,
    startCommand: 'vllm serve <model>',
  },
  {
    name: 'openrouter',
    api: 'openai-chat',
    description: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    keyEnv: ['OPENROUTER_API_KEY'],
    keyRequired: true,
  },
  { name: 'groq', api: 'openai-chat', description: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', keyEnv: ['GROQ_API_KEY'], keyRequired: true },
  { name: 'together', api: 'openai-chat', description: 'Together AI', baseUrl: 'https://api.together.xyz/v1', keyEnv: ['TOGETHER_API_KEY'], keyRequired: true },
];

/** The preset of a provider name, or `undefined`. */
export function providerPreset(name: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((preset) => preset.name === name);
}
