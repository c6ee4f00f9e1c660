/**
 * The names Troupe emits are the GenAI conventions' own: each agrees with
 * `@opentelemetry/semantic-conventions` (incubating), which the package does not load at run time.
 */
import * as semconv from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it } from 'vitest';
import { GenAi, Metric, Operation } from '../src/index.js';

describe('semantic conventions', () => {
  it('name the GenAI attributes as the conventions do', () => {
    expect(GenAi).toMatchObject({
      operationName: semconv.ATTR_GEN_AI_OPERATION_NAME,
      providerName: semconv.ATTR_GEN_AI_PROVIDER_NAME,
      requestModel: semconv.ATTR_GEN_AI_REQUEST_MODEL,
      requestMaxTokens: semconv.ATTR_GEN_AI_REQUEST_MAX_TOKENS,
      requestTemperature: semconv.ATTR_GEN_AI_REQUEST_TEMPERATURE,
      requestTopP: semconv.ATTR_GEN_AI_REQUEST_TOP_P,
      responseModel: semconv.ATTR_GEN_AI_RESPONSE_MODEL,
      responseFinishReasons: semconv.ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
      usageInputTokens: semconv.ATTR_GEN_AI_USAGE_INPUT_TOKENS,
      usageOutputTokens: semconv.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
      usageCacheReadInputTokens: semconv.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
      usageCacheCreationInputTokens: semconv.ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
      usageReasoningOutputTokens: semconv.ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
      agentName: semconv.ATTR_GEN_AI_AGENT_NAME,
      agentId: semconv.ATTR_GEN_AI_AGENT_ID,
      agentDescription: semconv.ATTR_GEN_AI_AGENT_DESCRIPTION,
      conversationId: semconv.ATTR_GEN_AI_CONVERSATION_ID,
      workflowName: semconv.ATTR_GEN_AI_WORKFLOW_NAME,
      toolName: semconv.ATTR_GEN_AI_TOOL_NAME,
      toolCallId: semconv.ATTR_GEN_AI_TOOL_CALL_ID,
      toolType: semconv.ATTR_GEN_AI_TOOL_TYPE,
      toolCallArguments: semconv.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
      toolCallResult: semconv.ATTR_GEN_AI_TOOL_CALL_RESULT,
      inputMessages: semconv.ATTR_GEN_AI_INPUT_MESSAGES,
      outputMessages: semconv.ATTR_GEN_AI_OUTPUT_MESSAGES,
      systemInstructions: semconv.ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
      tokenType: semconv.ATTR_GEN_AI_TOKEN_TYPE,
      errorType: semconv.ATTR_ERROR_TYPE,
    });
  });

  it('name operations and the client metrics as the conventions do', () => {
    expect(Operation).toEqual({
      chat: semconv.GEN_AI_OPERATION_NAME_VALUE_CHAT,
      invokeAgent: semconv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      invokeWorkflow: semconv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW,
      executeTool: semconv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    });
    expect(Metric.tokenUsage).toBe(semconv.METRIC_GEN_AI_CLIENT_TOKEN_USAGE);
    expect(Metric.operationDuration).toBe(semconv.METRIC_GEN_AI_CLIENT_OPERATION_DURATION);
  });
});
