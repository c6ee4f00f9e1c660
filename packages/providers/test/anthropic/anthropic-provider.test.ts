/**
 * Proves the Anthropic provider honours the provider contract against a replay of the documented
 * Messages event stream (message_start, content_block_start/delta/stop with text_delta,
 * input_json_delta, thinking_delta and signature_delta, message_delta, message_stop): text, split
 * and parallel tool calls, broken JSON, signed thinking, usage and catalog cost, classified
 * errors, a dropped connection, abort, and a tool round trip through the core Agent loop.
 */
import { describeProviderContract } from '../contract/provider-contract.js';
import { subject } from '../support/subjects.js';
import { anthropicWire } from '../wire/anthropic-wire.js';

describeProviderContract(subject({ provider: 'anthropic', model: 'claude-sonnet-4-5', vendor: 'anthropic', wire: anthropicWire() }));
