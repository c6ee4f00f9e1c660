/**
 * Proves the OpenAI-compatible path (`openai-compatible` with a base URL, as for vLLM, Ollama,
 * LM Studio, llama.cpp and gateways) honours the provider contract against a replayed
 * Chat Completions stream with the compatible servers' differences: reasoning in
 * `delta.reasoning` (Ollama, OpenRouter), an overflow error as vLLM's top-level error object, and
 * a model without a catalog price (cost marked unknown).
 */
import { describeProviderContract } from '../contract/provider-contract.js';
import { subject } from '../support/subjects.js';
import { openAIChatWire } from '../wire/openai-chat-wire.js';

describeProviderContract(
  subject({
    provider: 'openai-compatible',
    model: 'qwen3:8b',
    wire: openAIChatWire({ label: 'OpenAI-compatible server', reasoningField: 'reasoning', overflowStyle: 'vllm' }),
    baseUrlSuffix: '/v1',
  }),
);
