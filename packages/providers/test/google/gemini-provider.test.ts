/**
 * Proves the Gemini provider honours the provider contract against a replay of the documented
 * `streamGenerateContent?alt=sse` stream (whole `GenerateContentResponse` chunks with text,
 * thought and functionCall parts, thought signatures, usageMetadata and finishReason): text, tool
 * calls (sent whole by Gemini), thinking with its signature, usage and catalog cost, classified
 * errors, a dropped connection, abort, and a tool round trip through the core Agent loop.
 */
import { describeProviderContract } from '../contract/provider-contract.js';
import { subject } from '../support/subjects.js';
import { geminiWire } from '../wire/gemini-wire.js';

describeProviderContract(subject({ provider: 'google', model: 'gemini-2.5-flash', vendor: 'google', wire: geminiWire() }));
