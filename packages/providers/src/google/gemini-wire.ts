/*
 * The parts of the Gemini REST wire format (generativelanguage v1beta, `streamGenerateContent`
 * with `alt=sse`) that Troupe reads and writes. Field names are the API's JSON names.
 */

/** One part of a content. */
export interface GeminiPart {
  text?: string;
  /** The text is a thought summary. */
  thought?: boolean;
  /** Opaque reasoning state the API wants back in the same part on later turns. */
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string };
}

/** A turn: `user` (also tool results) or `model`. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** Token counts; `promptTokenCount` includes `cachedContentTokenCount`. */
export interface GeminiUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  totalTokenCount?: number;
}

/** An error body (`{ error: { code, message, status, details } }`). */
export interface GeminiError {
  code?: number;
  message?: string;
  status?: string;
  details?: { '@type'?: string; retryDelay?: string }[];
}

/** One streamed chunk: a `GenerateContentResponse`. */
export interface GeminiChunk {
  candidates?: { content?: { role?: string; parts?: GeminiPart[] }; finishReason?: string; index?: number }[];
  usageMetadata?: GeminiUsage;
  promptFeedback?: { blockReason?: string };
  modelVersion?: string;
  responseId?: string;
  error?: GeminiError;
}

/** The request body of `streamGenerateContent`. */
export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: { name: string; description: string; parametersJsonSchema: Record<string, unknown> }[] }[];
  generationConfig?: {
    maxOutputTokens?: number;
    temperature?: number;
    topP?: number;
    thinkingConfig?: { includeThoughts?: boolean; thinkingBudget?: number; thinkingLevel?: string };
  };
}
