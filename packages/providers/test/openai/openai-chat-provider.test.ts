/**
 * Proves the Chat Completions provider honours the provider contract against a replay of
 * OpenAI's documented `chat.completion.chunk` stream (text, split and parallel tool calls, broken
 * JSON, reasoning, usage and catalog cost, classified errors, a dropped connection, abort) and
 * runs a tool round trip through the core Agent loop.
 */
import { describeProviderContract } from '../contract/provider-contract.js';
import { subject } from '../support/subjects.js';
import { openAIChatWire } from '../wire/openai-chat-wire.js';

describeProviderContract(
  subject({
    provider: 'openai-chat',
    model: 'gpt-5.4-mini',
    vendor: 'openai',
    wire: openAIChatWire({ label: 'OpenAI Chat Completions', reasoningField: 'reasoning_content', overflowStyle: 'openai' }),
    baseUrlSuffix: '/v1',
  }),
);
