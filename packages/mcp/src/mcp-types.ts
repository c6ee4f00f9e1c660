import type { UserContent } from '@troupe/core';

/** How a server is reached once connected. */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse';

/** What is known of a connected server. */
export interface McpServerInfo {
  transport: McpTransportKind;
  /** As the server names itself. */
  serverName: string;
  serverVersion: string;
  /** Usage hints the server sent in its initialize result. */
  instructions?: string;
  /** The process of a stdio server. */
  pid?: number;
}

/** A tool as the server lists it, with the name the model sees. */
export interface McpToolInfo {
  /** The server's name for it. */
  name: string;
  /** The core tool name: prefix plus the name (characters other than letters, digits, `_` and `-` become `_`). */
  exposedName: string;
  title?: string;
  description?: string;
  /** JSON Schema of the arguments, exactly as the server sent it. */
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** The server's hints (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`). Untrusted. */
  annotations?: Record<string, unknown>;
}

/** A resource a server offers. */
export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** A parameterised family of resources (`file:///{path}`). */
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One part of a read resource: text, or binary as base64 `blob`. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** A prompt template a server offers. */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** A prompt filled in by the server: messages ready to send to a model. */
export interface McpPromptResult {
  description?: string;
  messages: { role: 'user' | 'assistant'; content: UserContent[] }[];
}

/** A form the server asks the user to fill in (MCP elicitation). */
export interface McpElicitation {
  server: string;
  message: string;
  /** The JSON Schema of the requested object. */
  schema: Record<string, unknown>;
}

/** The user's answer to an elicitation. With `accept`, defaults of the schema fill omitted fields. */
export interface McpElicitationAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}
