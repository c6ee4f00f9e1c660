/**
 * Proves the OpenAI Responses provider honours the provider contract against a replay of the
 * documented Responses event stream (`response.output_text.delta`,
 * `response.function_call_arguments.delta`, `response.reasoning_summary_text.delta`,
 * `response.completed`…): text, split and parallel tool calls, broken JSON, reasoning kept as a
 * reasoning item, usage and catalog cost, classified errors, a dropped connection, abort, and a
 * tool round trip through the core Agent loop.
 */
import { describeProviderContract } from '../contract/provider-contract.js';
import { subject } from '../support/subjects.js';
import { openAIResponsesWire } from '../wire/openai-responses-wire.js';

describeProviderContract(subject({ provider: 'openai', model: 'gpt-5.4-mini', vendor: 'openai', wire: openAIResponsesWire(), baseUrlSuffix: '/v1' }));
