import type { GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { UserContent } from '@troupe/core';
import type { McpPrompt, McpPromptResult, McpResource, McpResourceContents, McpResourceTemplate } from '../mcp-types.js';
import { mapCallToolResult } from '../tools/result-mapping.js';

/** An SDK resource as the adapter's plain type. */
export function toResource(resource: Resource): McpResource {
  const out: McpResource = { uri: resource.uri, name: resource.name };
  if (resource.title !== undefined) out.title = resource.title;
  if (resource.description !== undefined) out.description = resource.description;
  if (resource.mimeType !== undefined) out.mimeType = resource.mimeType;
  if (resource.size !== undefined) out.size = resource.size;
  return out;
}

/** An SDK resource template as the adapter's plain type. */
export function toResourceTemplate(template: ResourceTemplate): McpResourceTemplate {
  const out: McpResourceTemplate = { uriTemplate: template.uriTemplate, name: template.name };
  if (template.title !== undefined) out.title = template.title;
  if (template.description !== undefined) out.description = template.description;
  if (template.mimeType !== undefined) out.mimeType = template.mimeType;
  return out;
}

/** The contents of a read resource. */
export function toResourceContents(result: ReadResourceResult): McpResourceContents[] {
  return result.contents.map((part) => {
    const out: McpResourceContents = { uri: part.uri };
    if (part.mimeType !== undefined) out.mimeType = part.mimeType;
    if ('text' in part && typeof part.text === 'string') out.text = part.text;
    if ('blob' in part && typeof part.blob === 'string') out.blob = part.blob;
    return out;
  });
}

/** An SDK prompt as the adapter's plain type. */
export function toPrompt(prompt: Prompt): McpPrompt {
  const out: McpPrompt = { name: prompt.name };
  if (prompt.title !== undefined) out.title = prompt.title;
  if (prompt.description !== undefined) out.description = prompt.description;
  if (prompt.arguments !== undefined) {
    out.arguments = prompt.arguments.map((arg) => {
      const a: { name: string; description?: string; required?: boolean } = { name: arg.name };
      if (arg.description !== undefined) a.description = arg.description;
      if (arg.required !== undefined) a.required = arg.required;
      return a;
    });
  }
  return out;
}

/** A filled-in prompt: each message's content mapped like a tool result's. */
export function toPromptResult(result: GetPromptResult, server: string, prompt: string): McpPromptResult {
  const out: McpPromptResult = {
    messages: result.messages.map((message) => {
      const mapped = mapCallToolResult({ content: [message.content] }, server, prompt).content;
      const content: UserContent[] = typeof mapped === 'string' ? [{ type: 'text', text: mapped }] : mapped;
      return { role: message.role, content };
    }),
  };
  if (result.description !== undefined) out.description = result.description;
  return out;
}
